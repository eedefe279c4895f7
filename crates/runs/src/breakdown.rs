//! The breakdown of a long run (see [`crate::run`]): every subproblem's counts, written as CSV
//! (`nqueens count N --breakdown FILE`).

use std::io;

use nqueens::plan::Tally;

/// One subproblem's counts in a [`Breakdown`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The subproblem's index in the plan.
    pub id: usize,
    /// The queens it fixes (0-based columns of rows 0, 1, …), for plans of row prefixes.
    pub prefix: Option<Vec<u8>>,
    /// Its counts (nodes 0 when not counted).
    pub tally: Tally,
    /// Whether its nodes were counted (false for a subproblem resumed from a journal of a run
    /// without a breakdown).
    pub nodes_counted: bool,
}

/// Every subproblem's counts of a complete long run, in id order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Whether the algorithm classifies each subproblem's solutions by symmetry (d4); the orbit
    /// counts of the others are zero and written empty.
    pub classifies: bool,
    /// The rows, by increasing id.
    pub rows: Vec<Row>,
}

impl Breakdown {
    /// Writes the breakdown as CSV: a header `id,prefix,solutions,orbit8,orbit4,orbit2,orbit1,nodes`,
    /// then one row per subproblem. The prefix is its columns (0-based, row 0 first) separated
    /// by spaces, empty for plans without prefixes; the orbit columns are empty where the
    /// algorithm does not classify a subproblem's solutions (mirror, join), the nodes where they
    /// were not counted.
    ///
    /// # Errors
    /// The first write error.
    pub fn write_csv(&self, out: impl io::Write) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(["id", "prefix", "solutions", "orbit8", "orbit4", "orbit2", "orbit1", "nodes"])?;
        for row in &self.rows {
            let prefix = row
                .prefix
                .as_ref()
                .map_or_else(String::new, |p| p.iter().map(u8::to_string).collect::<Vec<_>>().join(" "));
            let c = row.tally.classes;
            let orbit = |k: u128| if self.classifies { k.to_string() } else { String::new() };
            let nodes = if row.nodes_counted { row.tally.nodes.to_string() } else { String::new() };
            w.write_record([
                row.id.to_string(),
                prefix,
                row.tally.solutions.to_string(),
                orbit(c.orbit8),
                orbit(c.orbit4),
                orbit(c.orbit2),
                orbit(c.orbit1),
                nodes,
            ])?;
        }
        w.flush()
    }
}
