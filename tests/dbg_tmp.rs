#[test]
fn dbg() {
    use plc::syntax::*;
    let src = "@pl.jit\ndef g(x: pl.Tensor):\n    z = x +* 2\n    w = 1\n    return z\n";
    let mut diags = vec![];
    let mut interner = plc::intern::Interner::new();
    let file = plc::source::FileId(0);
    let toks = tokens(file, src, &mut diags);
    let (toks, _) = host::split(file, src, &toks, &mut diags);
    eprintln!("toks {:?}", toks.iter().map(|t| t.kind).collect::<Vec<_>>());
    let mut b = builder::Builder {
        file,
        src,
        tokens: &toks,
        interner: &mut interner,
        ast: ast::Ast::default(),
        diags: vec![],
    };
    let input = toks
        .iter()
        .map(|t| Ok::<_, std::convert::Infallible>((t.span.lo, t.kind, t.span.hi)));
    let r = grammar::ModuleParser::new().parse(&mut b, input);
    eprintln!("result {:?}", r);
    eprintln!("stmts {:?}", b.ast.stmts);
    eprintln!("body {:?}", b.ast.body);
}
