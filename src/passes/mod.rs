//! The pass pipeline: each pass declares the properties it requires, produces and
//! invalidates, and the manager checks a whole pipeline before it runs any of it.
//!
//! ```text
//!  #  pass                   requires                                    produces
//!  1  InlineFunctions        -                                           InlineFunctionsEliminated
//!  2  ConvertToSSA           -                                           SSAForm
//!  3  OutlineHierarchyScopes SSAForm                                     HierarchyOutlined
//!  4  OutlineGraphScopes     SSAForm, InlineFunctionsEliminated          GraphOutlined
//!  5  OutlineIncoreScopes    SSAForm, GraphOutlined                      IncoreOutlined
//!  6  OutlineClusterScopes   SSAForm                                     ClusterOutlined
//!  7  DeriveCallDirections   IncoreOutlined                              CallDirectionsResolved
//!  8  LegalizeGraphBoundary  GraphOutlined, CallDirectionsResolved       GraphBoundaryLegalized
//! ```
//!
//! The default pipeline is this table, in order. A pipeline given as text (`--passes
//! A,B,C`) is kept as a source file of its own, so that an error in it (E0403, E0404)
//! points at the pass name. `driver.rs` plans the pipeline and runs it one pass at a time.

pub(crate) mod cluster;
pub(crate) mod dataflow;
pub(crate) mod directions;
pub(crate) mod fused;
pub(crate) mod graph;
pub(crate) mod hierarchy;
pub(crate) mod incore;
pub(crate) mod inline;
pub(crate) mod legalize;
pub(crate) mod outline;
pub(crate) mod props;
pub(crate) mod ssa;

use crate::diag::{Code, Diagnostic, Label, Span};
use crate::intern::Interner;
use crate::ir::{Functions, Program};
use crate::source::{FileId, SourceMap};
use std::sync::Arc;

/// What a pass leaves true of the program, for the passes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    InlineFunctionsEliminated,
    SsaForm,
    HierarchyOutlined,
    GraphOutlined,
    IncoreOutlined,
    ClusterOutlined,
    CallDirectionsResolved,
    GraphBoundaryLegalized,
}

impl Property {
    pub fn name(self) -> &'static str {
        match self {
            Property::InlineFunctionsEliminated => "InlineFunctionsEliminated",
            Property::SsaForm => "SSAForm",
            Property::HierarchyOutlined => "HierarchyOutlined",
            Property::GraphOutlined => "GraphOutlined",
            Property::IncoreOutlined => "IncoreOutlined",
            Property::ClusterOutlined => "ClusterOutlined",
            Property::CallDirectionsResolved => "CallDirectionsResolved",
            Property::GraphBoundaryLegalized => "GraphBoundaryLegalized",
        }
    }
}

/// What a pass gets besides the program: the session's names and a place for errors.
pub struct PassCx<'a> {
    pub names: &'a mut Interner,
    pub diags: &'a mut Vec<Diagnostic>,
    /// `plc check`: what only the C++ output needs is a warning (see
    /// `driver::PipelineSpec::check_only`).
    pub check_only: bool,
    /// The program is dropped after this pass, unread: a rewrite that no diagnostic
    /// depends on may be left out ([`Mode::discarded`]).
    pub discarded: bool,
    /// What the pass run right before this one on the program left for it.
    pub given: Handoff,
    /// What this pass leaves for the pass run right after it on the program.
    pub left: Handoff,
    /// On a run of [`fused`]: the program's functions as they were before the run began
    /// (the run's program holds only its own). An outlining pass avoids their names too
    /// ([`outline::Reserved`]) and looks up there a callee its program does not hold.
    pub outside: Option<Arc<Functions>>,
    /// On a run of [`fused`], set by the outlining passes: the names of the functions they
    /// made, in order, and whether a region called a function neither the run's program nor
    /// `outside` holds (the serial pass might have found it among another run's).
    pub chosen: Vec<crate::intern::Symbol>,
    pub missed: bool,
}

impl<'a> PassCx<'a> {
    /// A context with nothing handed on.
    pub fn new(names: &'a mut Interner, diags: &'a mut Vec<Diagnostic>, check_only: bool) -> PassCx<'a> {
        PassCx {
            names,
            diags,
            check_only,
            discarded: false,
            given: Handoff::Nothing,
            left: Handoff::Nothing,
            outside: None,
            chosen: Vec::new(),
            missed: false,
        }
    }
}

/// What a pass found that the pass right after it can use instead of finding it again.
/// [`run_pass`] gives it to the next pass run on the same program only, so no pass in
/// between has changed the program; a pass given nothing finds it itself.
#[derive(Default)]
pub enum Handoff {
    #[default]
    Nothing,
    /// DeriveCallDirections' calls of functions of the program ([`directions::CallSite`]):
    /// every one, in the order of the callers' places and, within a caller, of
    /// `visit::walk_block_exprs`, each with where its statement sits. LegalizeGraphBoundary
    /// takes the calls of graphs from them instead of walking every function
    /// (DeriveCallDirections changes only the calls' attributes), rewrites each call site
    /// from the block that holds it, and takes the findings of its static rules of each
    /// graph's body ([`directions::Handed`]) instead of walking the graphs' expressions.
    Calls(directions::Handed),
    /// The positions, in program order, of the functions that may still hold a region of
    /// some kind after an outlining pass (every other function holds none): left by
    /// OutlineGraphScopes (whose scan sees every region) for OutlineIncoreScopes, and by
    /// OutlineIncoreScopes (the functions it looked at, and those it made holding a region)
    /// for OutlineClusterScopes; each looks at those functions only, since the check of
    /// any other would find nothing and report nothing.
    Regions(Vec<usize>),
}

/// Runs a pass over one program. Errors go to `cx.diags`; the manager stops the pipeline
/// after a pass that reported any.
pub type RunPass = fn(&mut PassCx<'_>, &mut Program);

/// One row of the pass table.
pub struct PassDef {
    pub name: &'static str,
    pub summary: &'static str,
    pub requires: &'static [Property],
    pub produces: &'static [Property],
    pub invalidates: &'static [Property],
    pub run: RunPass,
}

use Property as P;

/// One row of [`PASSES`]: `pass!(Name, run, [requires] => [produces], "summary")`, with
/// `invalidates [..]` after the properties produced for a pass that breaks a property.
macro_rules! pass {
    ($name:ident, $run:path, [$($r:ident),*] => [$($p:ident),*] $(, invalidates [$($i:ident),*])?, $summary:literal) => {
        PassDef {
            name: stringify!($name),
            summary: $summary,
            requires: &[$(Property::$r),*],
            produces: &[$(Property::$p),*],
            invalidates: &[$($(Property::$i),*)?],
            run: $run,
        }
    };
}

/// Every pass, in the default pipeline's order.
pub static PASSES: &[PassDef] = &[
    pass!(InlineFunctions, inline::run, [] => [InlineFunctionsEliminated],
        "splice each Inline function into its callers, then remove it"),
    pass!(ConvertToSSA, ssa::run, [] => [SsaForm],
        "one assignment per variable; loop-carried values become iter args, ifs get phis"),
    pass!(OutlineHierarchyScopes, hierarchy::run, [SsaForm] => [HierarchyOutlined, SsaForm],
        "each `pl.at(level=...)` region above CORE_GROUP in an Opaque function becomes a function of its level and role"),
    pass!(OutlineGraphScopes, graph::run, [SsaForm, InlineFunctionsEliminated] => [GraphOutlined, SsaForm],
        "each `with pl.graph(name):` region becomes a Graph function named after it"),
    pass!(OutlineIncoreScopes, incore::run, [SsaForm, GraphOutlined] => [IncoreOutlined, SsaForm],
        "each `pl.at(level=CORE_GROUP)` region becomes an InCore function"),
    pass!(OutlineClusterScopes, cluster::run, [SsaForm] => [ClusterOutlined, SsaForm],
        "`pl.cluster()` regions become Group functions, `pl.spmd(n)` regions Spmd functions"),
    pass!(DeriveCallDirections, directions::run, [IncoreOutlined] => [CallDirectionsResolved],
        "the direction of each argument at each call of a function"),
    pass!(LegalizeGraphBoundary, legalize::run, [GraphOutlined, CallDirectionsResolved] => [GraphBoundaryLegalized],
        "graph boundaries that replay correctly: derived scalars and allocations move to the call site"),
];

pub fn by_name(name: &str) -> Option<&'static PassDef> {
    PASSES.iter().find(|p| p.name == name)
}

/// A pipeline that passed the static check: its passes, in order.
pub struct Pipeline {
    pub passes: Vec<&'static PassDef>,
}

impl Pipeline {
    /// The default pipeline: every pass of the table, in the table's order (well ordered,
    /// as a test below checks).
    pub fn default_pipeline() -> Pipeline {
        Pipeline { passes: PASSES.iter().collect() }
    }
}

/// Reads and checks a pipeline (`A,B,C`) before anything runs: every name must be a pass
/// (E0404), and every pass's requirements must be produced by an earlier pass and not
/// invalidated since (E0403, naming the pass that would produce the property).
pub fn plan(files: &mut SourceMap, text: &str) -> Result<Pipeline, Vec<Diagnostic>> {
    let (file, _) = files.add_bytes("<pipeline>", text.as_bytes().to_vec());
    let mut diags = Vec::new();
    let mut passes = Vec::new();
    let mut at = 0usize;
    for part in text.split(',') {
        let lo = at + (part.len() - part.trim_start().len());
        let name = part.trim();
        let span = Span::new(lo as u32, (lo + name.len()) as u32);
        at += part.len() + 1;
        match by_name(name) {
            Some(def) => passes.push((def, span)),
            None => diags.push(unknown_pass(file, span, name)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut have: Vec<Property> = Vec::new();
    for (i, &(def, span)) in passes.iter().enumerate() {
        for &need in def.requires {
            if have.contains(&need) {
                continue;
            }
            let producer = PASSES.iter().find(|p| p.produces.contains(&need) && p.requires.iter().all(|r| *r != need));
            let lost = passes[..i].iter().rev().find(|(p, _)| p.invalidates.contains(&need));
            let mut d = Diagnostic::error(
                Code::E0403,
                format!("pass `{}` requires {}, which no earlier pass in the pipeline produces", def.name, need.name()),
                Label::primary(file, span, format!("needs {}", need.name())),
            );
            if let Some((p, pspan)) = lost {
                d = d.with_label(Label::secondary(file, *pspan, format!("`{}` invalidates {}", p.name, need.name())));
            }
            if let Some(p) = producer {
                d = d.with_help(format!("run `{}` before `{}`: it produces {}", p.name, def.name, need.name()));
            }
            diags.push(d);
        }
        have.retain(|p| !def.invalidates.contains(p));
        for &p in def.produces {
            if !have.contains(&p) {
                have.push(p);
            }
        }
    }
    if diags.is_empty() {
        Ok(Pipeline { passes: passes.into_iter().map(|(def, _)| def).collect() })
    } else {
        Err(diags)
    }
}

fn unknown_pass(file: FileId, span: Span, name: &str) -> Diagnostic {
    let list = PASSES.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    Diagnostic::error(Code::E0404, format!("no pass is called `{name}`"), Label::primary(file, span, "unknown pass"))
        .with_help(format!("the passes are: {list}"))
}

/// How many passes of `pipeline` run to stop after the pass called `after`, which must be
/// in the pipeline (an error in the file `<--after>` otherwise).
pub fn stop_index(files: &mut SourceMap, pipeline: &Pipeline, after: &str) -> Result<usize, Vec<Diagnostic>> {
    if let Some(i) = pipeline.passes.iter().position(|p| p.name == after) {
        return Ok(i + 1);
    }
    let (file, _) = files.add_bytes("<--after>", after.as_bytes().to_vec());
    let span = Span::new(0, after.len() as u32);
    Err(vec![match by_name(after) {
        Some(_) => Diagnostic::error(
            Code::E0404,
            format!("pass `{after}` is not in the pipeline"),
            Label::primary(file, span, "not run"),
        )
        .with_help("add it to `--passes`, or name a pass that is in the pipeline".to_string()),
        None => unknown_pass(file, span, after),
    }])
}

/// How [`run_pass`] runs a pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mode {
    /// Re-check the result (see [`run_pass`]).
    pub verify: bool,
    /// See [`PassCx::check_only`].
    pub check_only: bool,
    /// Nothing reads the programs after this pass (the last of a `plc check`, unverified):
    /// the pass reports the same diagnostics, and may leave its result unfinished where
    /// only the IR would show it (LegalizeGraphBoundary's call sites).
    pub discarded: bool,
}

/// Runs one pass over every program. With `verify`, when the pass reported no error, the
/// verifier and the checks of every property the pass produces run on its result. The
/// driver stops the pipeline after a pass that reported errors. `handoffs`: what the pass
/// run before on each program left for this one ([`Handoff`]), replaced by what this one
/// leaves (sized to the programs here).
pub fn run_pass(
    def: &PassDef,
    Mode { verify, check_only, discarded }: Mode,
    programs: &mut [Program],
    handoffs: &mut Vec<Handoff>,
    names: &mut Interner,
    diags: &mut Vec<Diagnostic>,
) {
    let errors = |diags: &[Diagnostic]| diags.iter().filter(|d| d.is_error()).count();
    let before = errors(diags);
    handoffs.resize_with(programs.len(), Handoff::default);
    for (program, handoff) in programs.iter_mut().zip(handoffs.iter_mut()) {
        let mut cx = PassCx::new(names, diags, check_only);
        cx.discarded = discarded;
        cx.given = std::mem::take(handoff);
        (def.run)(&mut cx, program);
        *handoff = cx.left;
    }
    if verify && errors(diags) == before {
        for program in programs.iter() {
            let ssa = def.produces.contains(&P::SsaForm);
            diags.extend(crate::ir::verify::verify(program, names, ssa));
            for &p in def.produces {
                diags.extend(props::check(p, def.name, program, names));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(Code, u32)> {
        let mut files = SourceMap::default();
        match plan(&mut files, text) {
            Ok(_) => Vec::new(),
            Err(diags) => diags.iter().map(|d| (d.code, d.primary.span.lo)).collect(),
        }
    }

    #[test]
    fn the_default_pipeline_is_well_ordered() {
        let text = PASSES.iter().map(|p| p.name).collect::<Vec<_>>().join(",");
        assert_eq!(codes(&text), []);
    }

    #[test]
    fn every_requirement_of_the_table_is_produced_by_an_earlier_pass() {
        for (i, p) in PASSES.iter().enumerate() {
            for need in p.requires {
                assert!(PASSES[..i].iter().any(|q| q.produces.contains(need)), "{} needs {}", p.name, need.name());
            }
        }
    }

    #[test]
    fn a_pass_before_its_producer_is_e0403_at_its_name() {
        assert_eq!(codes("InlineFunctions,OutlineGraphScopes,ConvertToSSA"), [(Code::E0403, 16)]);
        // Each missing property is its own error.
        assert_eq!(codes("OutlineGraphScopes"), [(Code::E0403, 0), (Code::E0403, 0)]);
        assert_eq!(codes("InlineFunctions,ConvertToSSA,OutlineIncoreScopes"), [(Code::E0403, 29)]);
        assert_eq!(codes("InlineFunctions,ConvertToSSA,OutlineGraphScopes"), []);
        // As PyPTO's, OutlineClusterScopes needs SSA form only (its tests run it alone).
        assert_eq!(codes("ConvertToSSA,OutlineClusterScopes"), []);
    }

    #[test]
    fn unknown_names_are_e0404() {
        assert_eq!(codes("InlineFunctions, SSA"), [(Code::E0404, 17)]);
        assert_eq!(codes(""), [(Code::E0404, 0)]);
    }
}
