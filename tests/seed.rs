//! The seed document's program through the whole default pipeline: the result has the
//! shape of the seed's "After" listing. `accumulate_band` is a Graph function (CHIP +
//! Orchestrator) with parameters `i, w, acc, base` (`base` added by LegalizeGraphBoundary's
//! Step A), the InCore region inside it is a kernel of its own, `entry` stays the
//! Orchestration entry, and its loop computes `i * ROWS` and passes it as the last argument.

use plc::driver::{self, Input, PipelineSpec, StopAt};
use plc::ir::{BinOp, Callee, Direction, ExprKind, FuncKind, Level, Role, StmtKind};

/// `acc__ssa_v1` → `acc`: the name the source gave a variable.
fn source_name(versioned: &str) -> &str {
    versioned.split("__").next().unwrap_or(versioned)
}

#[test]
fn the_seed_program_comes_out_as_the_seed_after_listing() {
    let spec = PipelineSpec::default().verified();
    let c = driver::compile(Input::file("examples/accumulate_band.pl"), &spec, StopAt::End).unwrap();
    assert!(c.diags.is_empty(), "{:?}", c.diags);
    let p = &c.programs[0];
    let names = &c.session.interner;
    let kinds: Vec<(String, FuncKind)> =
        p.functions.values().map(|f| (names.get(f.name).to_string(), f.decl.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("accumulate_band_incore_0".to_string(), FuncKind::InCore),
            ("accumulate_band".to_string(), FuncKind::Graph),
            ("entry".to_string(), FuncKind::Orchestration),
        ]
    );

    let graph = p.functions.values().find(|f| f.decl.kind == FuncKind::Graph).unwrap();
    assert_eq!((graph.decl.level, graph.decl.role), (Some(Level::Chip), Some(Role::Orchestrator)));
    let params: Vec<(&str, Direction)> =
        graph.params.iter().map(|q| (source_name(names.get(p.var(q.var).name)), q.dir)).collect();
    assert_eq!(
        params,
        [("i", Direction::In), ("w", Direction::In), ("acc", Direction::InOut), ("base", Direction::In)]
    );

    // In `entry`'s loop: `base__graph_arg = i * 128`, then the call passing it last.
    let entry = p.functions.values().find(|f| names.get(f.name) == "entry").unwrap();
    let body = entry
        .body
        .iter()
        .find_map(|&st| match &p.stmt(st).kind {
            StmtKind::For(for_) => Some(for_.body.clone()),
            _ => None,
        })
        .expect("the layer loop");
    let StmtKind::Assign { var: base, value } = p.stmt(body[0]).kind else { panic!("the hoisted base first") };
    let ExprKind::Binary { op: BinOp::Mul, lhs, rhs } = p.expr(value).kind else { panic!("i * ROWS") };
    let ExprKind::Var(i) = p.expr(lhs).kind else { panic!("i") };
    assert_eq!(source_name(names.get(p.var(i).name)), "i");
    assert_eq!(p.expr(rhs).kind, ExprKind::Int(128));
    let StmtKind::Assign { value: call, .. } = p.stmt(body[1]).kind else { panic!("the graph call") };
    let ExprKind::Call { callee: Callee::Func(g), args, .. } = &p.expr(call).kind else { panic!("a call") };
    assert_eq!(names.get(*g), "accumulate_band");
    let ExprKind::Var(last) = p.expr(args.last().copied().flatten().unwrap()).kind else { panic!("a variable") };
    assert_eq!(last, base);

    // Exactly one Graph function, however many times the loop calls it.
    assert_eq!(p.functions.values().filter(|f| f.decl.kind == FuncKind::Graph).count(), 1);
}
