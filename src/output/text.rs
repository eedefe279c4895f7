//! The text format: an aligned table with a header, one row per n.

use std::io::{self, Write};

use super::{Record, Sink};

/// Writes an aligned table; the widths fit counts up to 10^24, beyond Q(27).
pub(super) struct Text<'a> {
    out: Box<dyn Write + 'a>,
    show_verified: bool,
    header_done: bool,
    /// The device column's width, shown (non-zero) when the first record was not counted by
    /// the CPU alone: wide enough for its device list (`opencl:0,opencl:1,cpu`).
    device_width: usize,
}

impl<'a> Text<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>, show_verified: bool) -> Self {
        Text { out, show_verified, header_done: false, device_width: 0 }
    }
}

impl Sink for Text<'_> {
    fn record(&mut self, r: &Record) -> io::Result<()> {
        if !self.header_done {
            self.header_done = true;
            self.device_width = if r.device == "cpu" { 0 } else { r.device.len().max(10) };
            write!(
                self.out,
                "{:>3} {:>24} {:>24} {:>10} {:>7} {:>8}",
                "n", "solutions", "unique", "seconds", "threads", "isa"
            )?;
            if self.device_width > 0 {
                write!(self.out, " {:>w$}", "device", w = self.device_width)?;
            }
            if self.show_verified {
                write!(self.out, " {:>8}", "verified")?;
            }
            if r.stats.is_some() {
                write!(
                    self.out,
                    " {:>11} {:>5} {:>22} {:>10} {:>10}",
                    "subproblems", "depth", "nodes", "Mnodes/s", "efficiency"
                )?;
            }
            writeln!(self.out)?;
        }
        // Unknown fundamental solutions (mirror halving, or n = 0) show as `-`.
        let unique = r.unique.map_or_else(|| "-".to_string(), |u| u.to_string());
        write!(
            self.out,
            "{:>3} {:>24} {:>24} {:>10.3} {:>7} {:>8}",
            r.n,
            r.solutions,
            unique,
            r.seconds,
            r.threads,
            r.isa.unwrap_or("-")
        )?;
        if self.device_width > 0 {
            write!(self.out, " {:>w$}", r.device, w = self.device_width)?;
        }
        if self.show_verified {
            let v = match r.verified {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "unknown",
            };
            write!(self.out, " {v:>8}")?;
        }
        if let Some(st) = &r.stats {
            let efficiency = st.efficiency.map_or_else(|| "-".to_string(), |e| format!("{e:.3}"));
            write!(
                self.out,
                " {:>11} {:>5} {:>22} {:>10.1} {:>10}",
                r.subproblems,
                r.split_depth,
                st.nodes,
                st.nodes_per_second / 1e6,
                efficiency
            )?;
        }
        writeln!(self.out)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, tests::render};

    #[test]
    fn exact_table() {
        let want = [
            "  n                solutions                   unique    seconds threads      isa",
            "  4                        2                        -      0.250       2     avx2",
            "  5                       11                        -      0.250       2     avx2",
            " 29   1180591620717411303424                        -      0.250       2     avx2",
            "  8                       92                       12      0.250       2        -",
            "",
        ];
        assert_eq!(render(Format::Text, false), want.join("\n"));
        let want = [
            "  n                solutions                   unique    seconds threads      isa verified",
            "  4                        2                        -      0.250       2     avx2      yes",
            "  5                       11                        -      0.250       2     avx2       NO",
            " 29   1180591620717411303424                        -      0.250       2     avx2  unknown",
            "  8                       92                       12      0.250       2        -      yes",
            "",
        ];
        assert_eq!(render(Format::Text, true), want.join("\n"));
    }

    #[test]
    fn a_count_on_a_device_shows_it() {
        let mut r = crate::output::tests::sample()[3].clone();
        r.device = "opencl:0".into();
        r.threads = 0;
        let mut out = Vec::new();
        {
            let mut sink =
                Format::Text.sink_for(Box::new(&mut out), false, crate::output::Sequence::Solutions);
            sink.record(&r).unwrap();
        }
        let want = [
            "  n                solutions                   unique    seconds threads      isa     device",
            "  8                       92                       12      0.250       0        -   opencl:0",
            "",
        ];
        assert_eq!(String::from_utf8(out).unwrap(), want.join("\n"));
    }
}
