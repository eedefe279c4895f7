//! Per-subproblem subtotals of a shard result, compactly: the counts of every subproblem a shard
//! ran, so that `nqueens merge --audit` can recount a random sample of them on another machine
//! and name the shard whose counts are wrong (the idea of the Q27 project, which published the
//! count of every start constellation).
//!
//! # Encoding (`leb128:` subtotals, shard result format 3)
//! The subproblems in increasing id order (the order [`crate::shard::assign`] lists them), each
//! as unsigned LEB128 varints (7 bits a byte, least significant group first, the high bit set on
//! every byte but the last, as DWARF and WebAssembly write them):
//! - for an algorithm that does not classify solutions (mirror, join): its solutions;
//! - for one that does (d4): its orbit8, orbit4, orbit2 and orbit1 counts, then the difference
//!   solutions − (8·orbit8 + 4·orbit4 + 2·orbit2 + orbit1), zigzag-coded (0, −1, 1, −2, … as
//!   0, 1, 2, 3, …), which is 0 for nearly every subproblem.
//!
//! The bytes are written in standard base64 without padding (RFC 4648 §4) after the prefix
//! `leb128:`. A join subproblem of n = 24 (about 1.7·10⁸ solutions) takes 4 bytes, so the 330
//! subproblems of one shard of n = 24 in K = 4,096 take about 1.8 KB of text; a d4 subproblem
//! takes about 8 bytes. Shards of more than [`MAX_TEXT`] bytes of subtotals carry none.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;

use nqueens::{Classes, plan::Tally};

/// The prefix of the subtotals text.
pub const PREFIX: &str = "leb128:";

/// The most bytes of subtotals text a shard result carries (4 MiB: about 780,000 join
/// subproblems of n = 24), so that a result stays well under what `merge` reads of a file
/// (8 MiB). A shard with more subproblems is written without subtotals (its audit recounts it
/// whole).
pub const MAX_TEXT: usize = 4 << 20;

/// Returns the subtotals text of `tallies` (the shard's subproblems in increasing id order;
/// nodes are not recorded) for an algorithm that classifies solutions per subproblem when
/// `classifies` is true; `None` if the text would exceed [`MAX_TEXT`].
pub fn encode<'a>(classifies: bool, tallies: impl IntoIterator<Item = &'a Tally>) -> Option<String> {
    let mut bytes = Vec::new();
    for t in tallies {
        if classifies {
            let c = &t.classes;
            for v in [c.orbit8, c.orbit4, c.orbit2, c.orbit1] {
                put(&mut bytes, v);
            }
            // Real counts are far below 2^127: the difference fits an i128.
            let weighted = c.checked_solutions()?;
            let delta = i128::try_from(t.solutions).ok()?.checked_sub(i128::try_from(weighted).ok()?)?;
            put(&mut bytes, ((delta << 1) ^ (delta >> 127)) as u128);
        } else {
            put(&mut bytes, t.solutions);
        }
        if bytes.len() / 3 * 4 > MAX_TEXT {
            return None;
        }
    }
    let text = format!("{PREFIX}{}", STANDARD_NO_PAD.encode(&bytes));
    (text.len() <= MAX_TEXT).then_some(text)
}

/// Appends `v` as an unsigned LEB128 varint.
fn put(out: &mut Vec<u8>, mut v: u128) {
    loop {
        let low = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// Subtotals decoded from their text: an iterator over the subproblems' tallies, in the order
/// they were written (nodes 0).
#[derive(Clone, Debug)]
pub struct Decoded {
    bytes: Vec<u8>,
    at: usize,
    classifies: bool,
}

/// Decodes the subtotals `text` of an algorithm that classifies solutions when `classifies` is
/// true; iterate the result for each subproblem's tally (see the module docs for the format).
///
/// # Errors
/// A message saying what is wrong: no `leb128:` prefix, or text that is not base64.
pub fn decode(text: &str, classifies: bool) -> Result<Decoded, String> {
    let body = text.strip_prefix(PREFIX).ok_or_else(|| {
        format!("the subtotals do not start with '{PREFIX}' (this program reads only that encoding)")
    })?;
    let bytes = STANDARD_NO_PAD.decode(body).map_err(|e| format!("the subtotals are not base64: {e}"))?;
    Ok(Decoded { bytes, at: 0, classifies })
}

impl Decoded {
    /// Reads one varint, or `Err` at a truncated or over-long one (more than 128 bits).
    fn get(&mut self) -> Result<u128, String> {
        let mut v = 0u128;
        for shift in (0..).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err("the subtotals end inside a number".into());
            };
            self.at += 1;
            let low = u128::from(b & 0x7f);
            if shift >= 128 || (shift > 121 && low >> (128 - shift) != 0) {
                return Err("a subtotal is larger than 2^128".into());
            }
            v |= low << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        unreachable!("the loop returns")
    }
}

impl Iterator for Decoded {
    type Item = Result<Tally, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let mut one = || -> Result<Tally, String> {
            if !self.classifies {
                return Ok(Tally { solutions: self.get()?, ..Tally::default() });
            }
            let (orbit8, orbit4, orbit2, orbit1) = (self.get()?, self.get()?, self.get()?, self.get()?);
            let classes = Classes { orbit8, orbit4, orbit2, orbit1 };
            let zigzag = self.get()?;
            let delta = (zigzag >> 1) as i128 ^ -((zigzag & 1) as i128);
            let solutions = classes
                .checked_solutions()
                .and_then(|w| i128::try_from(w).ok())
                .and_then(|w| w.checked_add(delta))
                .and_then(|s| u128::try_from(s).ok())
                .ok_or("a subtotal's solutions are out of range")?;
            Ok(Tally { solutions, classes, nodes: 0 })
        };
        let item = one();
        if item.is_err() {
            // One error ends the iteration.
            self.at = self.bytes.len();
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(solutions: u128, c: [u128; 4]) -> Tally {
        let classes = Classes { orbit8: c[0], orbit4: c[1], orbit2: c[2], orbit1: c[3] };
        Tally { solutions, classes, nodes: 0 }
    }

    #[test]
    fn subtotals_round_trip() {
        let plain = [tally(0, [0; 4]), tally(127, [0; 4]), tally(128, [0; 4]), tally(u128::MAX, [0; 4])];
        let text = encode(false, &plain).unwrap();
        // 0 and 127 are one byte each, 128 two, 2^128 - 1 nineteen: 23 bytes, 31 base64 digits.
        assert_eq!(text.len(), PREFIX.len() + 31, "{text}");
        let back: Vec<Tally> = decode(&text, false).unwrap().map(Result::unwrap).collect();
        assert_eq!(back, plain);
        // d4: the difference from the weighted classes, either sign.
        let d4 = [tally(8 * 5, [5, 0, 0, 0]), tally(4 * 3 + 1, [0, 3, 0, 1]), tally(2, [1, 0, 0, 0])];
        let text = encode(true, &d4).unwrap();
        let back: Vec<Tally> = decode(&text, true).unwrap().map(Result::unwrap).collect();
        assert_eq!(back, d4);
        assert_eq!(encode(false, &[]).unwrap(), PREFIX);
        assert_eq!(decode(PREFIX, true).unwrap().count(), 0);
    }

    #[test]
    fn damaged_subtotals_are_errors_not_panics() {
        assert!(decode("raw:AAAA", false).unwrap_err().contains("do not start with 'leb128:'"));
        assert!(decode("leb128:*!", false).unwrap_err().contains("not base64"));
        // A varint whose last byte says "more follows".
        let cut = format!("{PREFIX}{}", STANDARD_NO_PAD.encode([0x80u8]));
        let items: Vec<_> = decode(&cut, false).unwrap().collect();
        assert_eq!(items, vec![Err("the subtotals end inside a number".to_string())]);
        let long = format!(
            "{PREFIX}{}",
            STANDARD_NO_PAD.encode([0xffu8; 19].iter().chain(&[0x7f]).copied().collect::<Vec<_>>())
        );
        assert_eq!(
            decode(&long, false).unwrap().next(),
            Some(Err("a subtotal is larger than 2^128".to_string()))
        );
        // d4 with a difference that makes the solutions negative.
        let mut bytes = Vec::new();
        for v in [0, 0, 0, 0, 1] {
            put(&mut bytes, v);
        }
        let neg = format!("{PREFIX}{}", STANDARD_NO_PAD.encode(&bytes));
        assert_eq!(
            decode(&neg, true).unwrap().next(),
            Some(Err("a subtotal's solutions are out of range".to_string()))
        );
    }

    #[test]
    fn too_many_subtotals_are_not_recorded() {
        let many = vec![tally(1 << 60, [0; 4]); MAX_TEXT / 6];
        assert!(encode(false, &many).is_none());
    }
}
