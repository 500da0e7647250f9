//! Hover on the name of a `with pl.graph("name"):` region: the Graph function the region
//! becomes in the compiled program, with its final name and its parameters in order, with
//! their directions and types — the boundary the runtime records.
//!
//! The program is the document's [`Analysis`]: the default pipeline as `plc check` runs it,
//! so every pass that changes a graph boundary is reflected once it is in the pipeline.
//! After an edit analysed in parts, the region's function is in the compilation of its
//! unit: this analysis's when the edit touched the unit, an earlier one's otherwise.
//! OutlineGraphScopes gives the Graph function the location of the region's header (from
//! `with` to the end of `pl.graph(...)`), which is how the function is found again:
//!
//! ```text
//! with pl.graph("layer"):     ──►   Graph function `layer_0` — made from pl.graph("layer") in `main`
//!     y = kern(y, y)                def layer_0(y__ssa_v1: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> ...
//!                                   1. `y` (`y__ssa_v1`) — InOut — `pl.Tensor[[64], pl.FP32]`
//! ```
//!
//! A region of an Inline function becomes one Graph function per call: all are shown.

use super::analysis::{Analysis, Syntax};
use super::query;
use crate::intern::Interner;
use crate::ir::{print, Direction, FuncKind, Function, Program};
use crate::syntax::ast::StmtKind;
use std::fmt::Write;

/// The hover text for the region name at `offset` of the analysed document, with the span
/// of that name; `None` when the position is not on a region name. The region is found in
/// the analysis's parse tree, along the statements around the position only.
pub fn region_hover(analysis: &Analysis, syntax: &Syntax, offset: u32) -> Option<(crate::diag::Span, String)> {
    let text = &analysis.session.files.get(analysis.root).text;
    let (names, ast) = (&syntax.names, &syntax.ast);
    // The region's `with` is the innermost statement around its name.
    let path = query::statements_at(ast, offset);
    let (&stmt, outer) = path.split_last()?;
    let function = outer.iter().rev().copied().find(|&s| matches!(ast.stmt(s).kind, StmtKind::FunctionDef(_)));
    let region = query::region(ast, text, &syntax.aliases, stmt, function)
        .filter(|r| r.name.as_ref().is_some_and(|(span, _)| query::contains(*span, offset)))?;
    let (name_span, region_name) = region.name.clone()?;
    let parent = region.function.and_then(|f| match &ast.stmt(f).kind {
        StmtKind::FunctionDef(def) => Some(names.get(def.name.name).to_string()),
        _ => None,
    });
    let made_from = match &parent {
        Some(p) => format!("made from `pl.graph(\"{region_name}\")` in `{p}`"),
        None => format!("made from `pl.graph(\"{region_name}\")`"),
    };

    // The programs of the compilation this region's function is in (for an analysis made
    // of parts, maybe an earlier one, whose positions are moved by `by`).
    let (programs, interner, file, by) = analysis.programs_at(region.header.lo);
    let at = |x: u32| (i64::from(x) - by) as u32;
    let header = crate::diag::Span::new(at(region.header.lo), at(region.header.hi));
    let graphs: Vec<(&Program, &Function)> = programs
        .iter()
        .flat_map(|p| p.functions.values().map(move |f| (p, f)))
        .filter(|(_, f)| f.decl.kind == FuncKind::Graph && f.loc.file == file && f.loc.span == header)
        .collect();
    let mut out = String::new();
    if graphs.is_empty() {
        let why = if crate::diag::has_errors(&analysis.diags) {
            "the program has errors (see the diagnostics), so the passes that outline it did not run"
        } else {
            "no function of the compiled program comes from it (a region of an Inline function that is never called is dropped with it)"
        };
        let _ = write!(out, "**`pl.graph(\"{region_name}\")`** — not outlined: {why}.");
        return Some((name_span, out));
    }
    for (i, (program, function)) in graphs.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n---\n\n");
        }
        describe(&mut out, program, function, interner, &made_from);
    }
    Some((name_span, out))
}

/// One Graph function: a title, its signature as `plc emit ir` prints it, and its
/// parameters one per line.
fn describe(out: &mut String, program: &Program, function: &Function, names: &Interner, made_from: &str) {
    let name = names.get(function.name);
    let in_program = program.name.map(|p| format!(" (program `{}`)", names.get(p))).unwrap_or_default();
    let _ = writeln!(out, "**Graph function `{name}`**{in_program} — {made_from}\n");
    let ty = |t| print::type_text(program, names, t).unwrap_or_else(|| "pl.Tensor".to_string());
    let params: Vec<(&str, &str, Direction, String)> = function
        .params
        .iter()
        .map(|p| {
            let var = program.var(p.var);
            (names.get(var.name), names.get(var.source), p.dir, ty(var.ty))
        })
        .collect();
    let signature: Vec<String> = params
        .iter()
        .map(|(n, _, dir, t)| match dir {
            Direction::In => format!("{n}: {t}"),
            _ => format!("{n}: pl.{dir}[{t}]"),
        })
        .collect();
    let returns = match function.returns.as_slice() {
        [] => String::new(),
        [one] => format!(" -> {}", ty(*one)),
        many => format!(" -> tuple[{}]", many.iter().map(|&t| ty(t)).collect::<Vec<_>>().join(", ")),
    };
    let _ = writeln!(out, "```python\ndef {name}({}){returns}\n```\n", signature.join(", "));
    if params.is_empty() {
        out.push_str("No parameters.");
        return;
    }
    out.push_str("Parameters, in order:");
    for (i, (n, source, dir, t)) in params.iter().enumerate() {
        let shown = if source == n { format!("`{n}`") } else { format!("`{source}` (`{n}`)") };
        let _ = write!(out, "\n{}. {shown} — {dir} — `{t}`", i + 1);
    }
}
