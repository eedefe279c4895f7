//! The json format: JSON Lines, one object per n, counts as JSON integers (exact beyond 2^64).

use std::io::{self, Write};

use super::{Record, Sink};

pub(super) struct Json<'a> {
    out: Box<dyn Write + 'a>,
}

impl<'a> Json<'a> {
    pub(super) fn new(out: Box<dyn Write + 'a>) -> Self {
        Json { out }
    }
}

impl Sink for Json<'_> {
    fn record(&mut self, r: &Record) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, r)?;
        writeln!(self.out)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Format, tests::render};

    #[test]
    fn exact_lines() {
        let want = r#"{"n":4,"solutions":2,"unique":null,"classes":null,"seconds":0.25,"threads":2,"algorithm":"mirror","isa":"avx2","device":"cpu","subproblems":10,"split_depth":2,"verified":true}
{"n":5,"solutions":11,"unique":null,"classes":null,"seconds":0.25,"threads":2,"algorithm":"mirror","isa":"avx2","device":"cpu","subproblems":10,"split_depth":2,"verified":false}
{"n":29,"solutions":1180591620717411303424,"unique":null,"classes":null,"seconds":0.25,"threads":2,"algorithm":"mirror","isa":"avx2","device":"cpu","subproblems":10,"split_depth":2,"verified":null}
{"n":8,"solutions":92,"unique":12,"classes":{"8":11,"4":1,"2":0,"1":0},"seconds":0.25,"threads":2,"algorithm":"d4","isa":null,"device":"-","subproblems":10,"split_depth":2,"verified":true}
"#;
        assert_eq!(render(Format::Json, false), want);
    }
}
