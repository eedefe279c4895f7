//! `nqueens-plot`: renders the study CSVs of `scripts/` as SVG and PNG, with the plotters crate and a
//! bundled font (DejaVu Sans, assets/fonts/), so no system package is needed.
//!
//! Usage: `cargo run --release --bin nqueens-plot -- FILE.csv...` (behind the `plot` feature, so
//! that a library build with `default-features = false` compiles no plotters).
//!
//! - `scaling-threads.csv` (from scripts/scaling-threads.sh): `<stem>-speedup.{svg,png}` (speedup
//!   over one thread, with the ideal linear line up to the machine's logical CPUs) and
//!   `<stem>-nodes-per-second.{svg,png}` (search nodes per wall-clock second per thread count).
//! - `scaling-n.csv` (from scripts/scaling-n.sh): `<stem>-time.{svg,png}` and `<stem>-nodes.{svg,png}`
//!   (seconds and nodes per n, log scale, ticks written 10⁻³).
//! - the CSV of scripts/join-vs-kluev.sh: `<stem>-cpu.{svg,png}` (CPU seconds per n of nqueens and
//!   of Kluev's counter, parts scaled to the whole count) and `<stem>-ratio.{svg,png}` (their
//!   ratio per n, with the 0.30 and 0.15 marks).
//!
//! Each point is the median of the repeats, with a bar from the fastest to the slowest repeat
//! labelled with their number (`×3`); a
//! subtitle names the host, processor, logical CPUs (the `cores` column, where the CSV has one),
//! threads and command. Series use the Okabe–Ito palette (distinguishable with the common colour
//! vision deficiencies; M. Okabe and K. Ito, "Color Universal Design", 2008) and one marker shape
//! each, so they stay apart in grey print too.
//!
//! The files are written beside the CSV. Exit codes: 0 success, 1 a file that cannot be read or
//! drawn, 2 bad usage (no file, an unknown CSV layout).

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use plotters::coord::Shift;
use plotters::prelude::*;

/// DejaVu Sans (Bitstream Vera license, assets/fonts/DejaVuSans-LICENSE.txt).
const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

type Res<T> = Result<T, Box<dyn Error>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        let help = "Usage: nqueens-plot FILE.csv...\nRenders scaling-threads.csv, scaling-n.csv and join-vs-kluev CSVs (from scripts/) as SVG and PNG beside each file.";
        return if args.is_empty() {
            eprintln!("nqueens-plot: no CSV file given: use nqueens-plot FILE.csv...");
            ExitCode::from(2)
        } else {
            println!("{help}");
            ExitCode::SUCCESS
        };
    }
    if plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
        eprintln!("nqueens-plot: the bundled font assets/fonts/DejaVuSans.ttf cannot be loaded");
        return ExitCode::from(1);
    }
    for arg in &args {
        match plot_file(Path::new(arg)) {
            Ok(written) => {
                for w in written {
                    println!("{}", w.display());
                }
            }
            Err(PlotError::Usage(msg)) => {
                eprintln!("nqueens-plot: {arg}: {msg}");
                return ExitCode::from(2);
            }
            Err(PlotError::Failed(e)) => {
                eprintln!("nqueens-plot: {arg}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

enum PlotError {
    Usage(String),
    Failed(Box<dyn Error>),
}

impl<E: Into<Box<dyn Error>>> From<E> for PlotError {
    fn from(e: E) -> Self {
        PlotError::Failed(e.into())
    }
}

/// One CSV as named columns of strings.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(path: &Path) -> Res<Table> {
        let mut reader = csv::Reader::from_path(path)?;
        let header = reader.headers()?.iter().map(str::to_string).collect();
        let rows = reader
            .records()
            .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
            .collect::<Result<_, _>>()?;
        Ok(Table { header, rows })
    }

    fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }

    fn col(&self, name: &str) -> Res<usize> {
        self.header.iter().position(|h| h == name).ok_or_else(|| format!("no column '{name}'").into())
    }

    fn num(&self, row: &[String], name: &str) -> Res<f64> {
        let v = &row[self.col(name)?];
        v.parse::<f64>().map_err(|_| format!("column '{name}': '{v}' is not a number").into())
    }

    fn text<'a>(&self, row: &'a [String], name: &str) -> Res<&'a str> {
        Ok(&row[self.col(name)?])
    }
}

fn plot_file(path: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let table = Table::read(path)?;
    if table.rows.is_empty() {
        return Err(PlotError::Usage("the CSV has no rows".into()));
    }
    let stem = path.with_extension("");
    // scaling-n.csv has a repeat column too: test its growth column first.
    if table.has("seconds_growth") {
        Ok(plot_n(&table, &stem)?)
    } else if table.has("repeat") && table.has("threads") {
        Ok(plot_threads(&table, &stem)?)
    } else if table.has("program") && table.has("cpu_s") && table.has("parts") {
        Ok(plot_vs(&table, &stem)?)
    } else if table.has("ns_per_solution") && table.has("build") {
        Ok(plot_frontier(&table, &stem)?)
    } else {
        Err(PlotError::Usage(
            "unknown layout: expected the header of scripts/scaling-threads.sh, scripts/scaling-n.sh, \
             scripts/join-vs-kluev.sh or scripts/join-frontier.sh"
                .into(),
        ))
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// One plotted point: x, the median y of the repeats, and the least and greatest y.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
    lo: f64,
    hi: f64,
    /// The runs it is the median of (0 for a drawn reference, which has none).
    runs: usize,
}

/// Returns one [`Point`] per distinct x (sorted), from every (x, y) of the repeats.
fn spread_per_x(points: Vec<(f64, f64)>) -> Vec<Point> {
    let mut by_x: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (x, y) in points {
        by_x.entry(x.round() as i64).or_default().push(y);
    }
    by_x.into_iter()
        .map(|(x, ys)| Point {
            x: x as f64,
            runs: ys.len(),
            lo: ys.iter().copied().fold(f64::INFINITY, f64::min),
            hi: ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            y: median(ys),
        })
        .collect()
}

/// A named line of points with their spread.
#[derive(Clone)]
struct Series {
    label: String,
    points: Vec<Point>,
    /// A reference line (the ideal speedup): drawn dashed in grey, without markers.
    reference: bool,
}

impl Series {
    fn new(label: String, points: Vec<Point>) -> Series {
        Series { label, points, reference: false }
    }
}

/// Returns the subtitle of a study: host, processor, logical CPUs (when the CSV says), threads and
/// the command that made each point.
fn subtitle(t: &Table, threads: &str, command: &str) -> Res<String> {
    let row = &t.rows[0];
    let cores =
        if t.has("cores") { format!(", {} logical CPUs", t.text(row, "cores")?) } else { String::new() };
    Ok(format!("{} ({}{cores}), {threads}: {command}", t.text(row, "host")?, t.text(row, "cpu_model")?))
}

/// (algorithm, n) -> (threads, seconds, nodes) of every run.
type RunsByKey = BTreeMap<(String, String), Vec<(f64, f64, f64)>>;

/// Per algorithm: (n, seconds) and (n, nodes) of every run.
type PerN = BTreeMap<String, (Vec<(f64, f64)>, Vec<(f64, f64)>)>;

fn plot_threads(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    let mut runs = RunsByKey::new();
    for row in &t.rows {
        let key = (t.text(row, "algorithm")?.to_string(), t.text(row, "n")?.to_string());
        runs.entry(key).or_default().push((
            t.num(row, "threads")?,
            t.num(row, "seconds")?.max(1e-9),
            t.num(row, "nodes")?,
        ));
    }
    // The speedup over the one-thread run of the same round, where the CSV has it (the study's
    // layout since issue 40), else over the median one-thread time.
    let same_round: Option<Vec<f64>> = t
        .has("speedup")
        .then(|| t.rows.iter().map(|row| t.num(row, "speedup")).collect::<Res<Vec<f64>>>())
        .transpose()?;
    let mut speedup: Vec<Series> = Vec::new();
    let mut rate: Vec<Series> = Vec::new();
    let mut max_threads = 1.0f64;
    for ((algorithm, n), runs) in &runs {
        // Speedup of each run over the median one-thread time (the first thread count if 1 is absent).
        let least = runs.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let base = median(runs.iter().filter(|r| r.0 == least).map(|r| r.1 * r.0).collect());
        let label = format!("{algorithm}, n = {n}");
        let points = match &same_round {
            Some(ratios) => t
                .rows
                .iter()
                .zip(ratios)
                .filter(|(row, _)| {
                    t.text(row, "algorithm").ok() == Some(algorithm.as_str())
                        && t.text(row, "n").ok() == Some(n.as_str())
                })
                .map(|(row, &s)| Ok((t.num(row, "threads")?, s)))
                .collect::<Res<Vec<_>>>()?,
            None => runs.iter().map(|r| (r.0, base / r.1)).collect(),
        };
        speedup.push(Series::new(label.clone(), spread_per_x(points)));
        rate.push(Series::new(label, spread_per_x(runs.iter().map(|r| (r.0, r.2 / r.1 / 1e6)).collect())));
        max_threads = max_threads.max(runs.iter().map(|r| r.0).fold(1.0, f64::max));
    }
    // The ideal line stops at the logical CPUs: more threads than CPUs cannot run faster.
    let cores = if t.has("cores") { t.num(&t.rows[0], "cores")? } else { max_threads };
    let ideal_to = cores.min(max_threads).max(1.0) as u32;
    let ideal = (1..=ideal_to).map(|x| x as f64).map(|x| Point { x, y: x, lo: x, hi: x, runs: 0 }).collect();
    let mut with_ideal = speedup.clone();
    with_ideal.push(Series {
        label: format!("ideal (linear, to {ideal_to} CPUs)"),
        points: ideal,
        reference: true,
    });
    let algorithms: Vec<&str> = runs.keys().map(|k| k.0.as_str()).collect();
    let sub = subtitle(
        t,
        &format!("1-{max_threads} threads"),
        &format!("nqueens count N -j T --algorithm {}", algorithms.join("|")),
    )?;
    let mut out = Vec::new();
    out.extend(render(
        stem,
        "speedup",
        "Speedup over one thread (median, bars: fastest-slowest)",
        &sub,
        ("threads", "speedup"),
        &with_ideal,
        false,
    )?);
    out.extend(render(
        stem,
        "nodes-per-second",
        "Search nodes per second (median, bars: fastest-slowest)",
        &sub,
        ("threads", "Mnodes/s"),
        &rate,
        false,
    )?);
    Ok(out)
}

fn plot_n(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    let mut by_algo = PerN::new();
    for row in &t.rows {
        let e = by_algo.entry(t.text(row, "algorithm")?.to_string()).or_default();
        let n = t.num(row, "n")?;
        e.0.push((n, t.num(row, "seconds")?.max(1e-6)));
        e.1.push((n, t.num(row, "nodes")?.max(1.0)));
    }
    let (mut secs, mut nodes): (Vec<Series>, Vec<Series>) = (Vec::new(), Vec::new());
    let algorithms: Vec<String> = by_algo.keys().cloned().collect();
    for (algorithm, (s, n)) in by_algo {
        secs.push(Series::new(algorithm.clone(), spread_per_x(s)));
        nodes.push(Series::new(algorithm, spread_per_x(n)));
    }
    let threads = t.text(&t.rows[0], "threads")?;
    let sub = subtitle(
        t,
        &format!("{threads} thread{}", if threads == "1" { "" } else { "s" }),
        &format!("nqueens count N -j {threads} --algorithm {}", algorithms.join("|")),
    )?;
    let mut out = render(
        stem,
        "time",
        "Wall seconds per board size (median, bars: fastest-slowest)",
        &sub,
        ("n", "seconds (log scale)"),
        &secs,
        true,
    )?;
    out.extend(render(
        stem,
        "nodes",
        "Search nodes per board size",
        &sub,
        ("n", "nodes (log scale)"),
        &nodes,
        true,
    )?);
    Ok(out)
}

/// The side-by-side CSV of scripts/join-vs-kluev.sh: `<stem>-cpu` (CPU seconds per board size of
/// each program and instruction-set level, a part's scaled by the number of parts to estimate
/// the whole count, log scale) and `<stem>-ratio` (nqueens' CPU seconds at each level over
/// Kluev's, median of the pairs per n, with the marks of issue 22: 0.30 for AVX2, 0.60 for the
/// portable level, 0.20 the goal beyond). CSVs from before the `isa` column plot as one level.
fn plot_vs(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    // (n) -> ("program level") -> CPU s × parts of every run.
    let mut by_n: BTreeMap<i64, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut parts_of: BTreeMap<i64, (String, String)> = BTreeMap::new();
    let with_isa = t.has("isa");
    for row in &t.rows {
        let n = t.num(row, "n")? as i64;
        let parts = t.num(row, "parts")?;
        let mut program = t.text(row, "program")?.to_string();
        if with_isa {
            program = format!("{program} {}", t.text(row, "isa")?);
        }
        // At least 10 ms (the resolution of the CPU times): a log axis has no zero.
        by_n.entry(n).or_default().entry(program).or_default().push(t.num(row, "cpu_s")?.max(0.01) * parts);
        parts_of.insert(n, (t.text(row, "parts")?.to_string(), t.text(row, "threads")?.to_string()));
    }
    let yardstick = if with_isa { "kluev native" } else { "kluev" };
    let mut per_program: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut ratios: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for (&n, programs) in &by_n {
        for (program, runs) in programs {
            per_program.entry(program.clone()).or_default().extend(runs.iter().map(|&c| (n as f64, c)));
        }
        let Some(his) = programs.get(yardstick) else { continue };
        for (program, ours) in programs.iter().filter(|(p, _)| p.starts_with("nqueens")) {
            // Pair the runs in order (the script alternates them).
            let label = format!("{program} / Kluev");
            ratios.entry(label).or_default().extend(ours.iter().zip(his).map(|(o, h)| (n as f64, o / h)));
        }
    }
    let cpu: Vec<Series> = per_program.into_iter().map(|(p, v)| Series::new(p, spread_per_x(v))).collect();
    let ns: Vec<i64> = by_n.keys().copied().collect();
    let flat =
        |y: f64| ns.iter().map(|&n| Point { x: n as f64, y, lo: y, hi: y, runs: 0 }).collect::<Vec<Point>>();
    let mut ratios: Vec<Series> = ratios.into_iter().map(|(l, v)| Series::new(l, spread_per_x(v))).collect();
    ratios.extend([
        Series { label: "0.60 (issue 22, portable)".into(), points: flat(0.60), reference: true },
        Series { label: "0.30 (issue 22, AVX2)".into(), points: flat(0.30), reference: true },
        Series { label: "0.20 (goal)".into(), points: flat(0.20), reference: true },
    ]);
    let how: Vec<String> = parts_of
        .iter()
        .map(|(n, (parts, threads))| {
            if parts == "1" {
                format!("{n}: whole, {threads}t")
            } else {
                format!("{n}: 1/{parts}, {threads}t")
            }
        })
        .collect();
    let row = &t.rows[0];
    let sub = format!(
        "{} ({}), commit {}; {}",
        t.text(row, "host")?,
        t.text(row, "cpu")?,
        t.text(row, "commit")?,
        how.join(", ")
    );
    let mut out = render(
        stem,
        "cpu",
        "CPU seconds (user + sys) per board size; a part's times its parts (median, bars: spread)",
        &sub,
        ("n", "CPU seconds (log scale)"),
        &cpu,
        true,
    )?;
    out.extend(render(
        stem,
        "ratio",
        "nqueens' CPU seconds over Kluev's tuned build (-march=native; median of alternating pairs)",
        &sub,
        ("n", "ratio"),
        &ratios,
        false,
    )?);
    Ok(out)
}

/// The CSV of scripts/join-frontier.sh: `<stem>-ns` (the join's CPU nanoseconds a solution per
/// board size, from `plan`'s sampled CPU time over Q(n), one series per build).
fn plot_frontier(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    let mut by_build: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for row in &t.rows {
        let label = format!("{} ({})", t.text(row, "build")?, t.text(row, "binary")?);
        by_build.entry(label).or_default().push((t.num(row, "n")?, t.num(row, "ns_per_solution")?));
    }
    let series: Vec<Series> = by_build.into_iter().map(|(l, v)| Series::new(l, spread_per_x(v))).collect();
    let row = &t.rows[0];
    let sub = format!(
        "{} ({}): nqueens plan N -j 1 --algorithm join --sample-seconds S --seed 1, CPU seconds over Q(N)",
        t.text(row, "host")?,
        t.text(row, "cpu")?
    );
    render(
        stem,
        "ns",
        "The join's CPU nanoseconds a solution per board size",
        &sub,
        ("n", "ns a solution"),
        &series,
        false,
    )
}

/// Draws `series` as an SVG and a PNG named `<stem>-<name>`; returns the two paths.
fn render(
    stem: &Path,
    name: &str,
    title: &str,
    subtitle: &str,
    axes: (&str, &str),
    series: &[Series],
    log_y: bool,
) -> Res<Vec<PathBuf>> {
    let base = format!("{}-{name}", stem.display());
    let (svg, png) = (PathBuf::from(format!("{base}.svg")), PathBuf::from(format!("{base}.png")));
    let size = (900, 560);
    draw(SVGBackend::new(&svg, size).into_drawing_area(), title, subtitle, axes, series, log_y)?;
    draw(BitMapBackend::new(&png, size).into_drawing_area(), title, subtitle, axes, series, log_y)?;
    Ok(vec![svg, png])
}

/// The Okabe–Ito palette, without its yellow (too light on white): blue, vermillion, bluish
/// green, reddish purple, orange, sky blue, black.
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// Returns `v` as a power of ten with superscript digits (`10⁻³`, `3×10⁴`), as journals print
/// log axes; plain digits between 0.01 and 10,000 would be ambiguous on a log scale.
fn power_of_ten(v: f64) -> String {
    if v.is_nan() || v <= 0.0 {
        return format!("{v}");
    }
    let mut exp = v.log10().floor() as i32;
    let mut mantissa = (v / 10f64.powi(exp)).round() as i64;
    if mantissa == 10 {
        mantissa = 1;
        exp += 1;
    }
    let sup: String = exp
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect();
    if mantissa == 1 { format!("10{sup}") } else { format!("{mantissa}×10{sup}") }
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
    (x_label, y_label): (&str, &str),
    series: &[Series],
    log_y: bool,
) -> Res<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(58);
    top.draw(&Text::new(title, (14, 8), ("sans-serif", 22).into_font()))?;
    top.draw(&Text::new(subtitle, (14, 36), ("sans-serif", 14).into_font().color(&RGBColor(80, 80, 80))))?;
    // A NaN or infinite value (a zero time divided) would stall the axis computation.
    if let Some(s) =
        series.iter().find(|s| s.points.iter().any(|p| ![p.x, p.y, p.lo, p.hi].iter().all(|v| v.is_finite())))
    {
        return Err(format!("series '{}' has a value that is not a finite number", s.label).into());
    }
    let points = series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = points.clone().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.x), a.1.max(p.x)));
    let (y0, y1) = points.fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.lo), a.1.max(p.hi)));
    let (x0, x1) = if x1 > x0 { (x0 - 0.3, x1 + 0.3) } else { (x0 - 1.0, x1 + 1.0) };
    let mut builder = ChartBuilder::on(&body);
    builder.margin(12).x_label_area_size(40).y_label_area_size(80);
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .x_labels(((x1 - x0) as usize + 1).min(24))
                .y_label_formatter(&|v| {
                    if log_y {
                        power_of_ten(*v)
                    } else if y1 < 2.0 {
                        format!("{v:.2}")
                    } else {
                        format!("{v:.1}")
                    }
                })
                .label_style(("sans-serif", 14))
                .draw()?;
            let mut marked = 0;
            for s in series {
                let pts: Vec<Point> = s.points.iter().copied().filter(|p| !log_y || p.lo > 0.0).collect();
                let line = pts.iter().map(|p| (p.x, p.y));
                if s.reference {
                    let grey = RGBColor(110, 110, 110);
                    chart
                        .draw_series(DashedLineSeries::new(line, 8, 5, grey.stroke_width(2)))?
                        .label(s.label.as_str())
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(2))
                        });
                    continue;
                }
                let (i, color) = (marked, PALETTE[marked % PALETTE.len()]);
                marked += 1;
                chart
                    .draw_series(LineSeries::new(line, color.stroke_width(2)))?
                    .label(s.label.as_str())
                    .legend(move |(x, y)| {
                        EmptyElement::at((x + 10, y))
                            + PathElement::new(vec![(-10, 0), (10, 0)], color.stroke_width(2))
                            + marker(i, (0, 0), color)
                    });
                chart.draw_series(
                    pts.iter()
                        .filter(|p| p.hi > p.lo)
                        .map(|p| ErrorBar::new_vertical(p.x, p.lo, p.y, p.hi, color.stroke_width(1), 8)),
                )?;
                chart.draw_series(
                    pts.iter().map(|p| EmptyElement::at((p.x, p.y)) + marker(i, (0, 0), color)),
                )?;
                // Each bar says how many runs it spans (issue 40): "×3" beside its top.
                chart.draw_series(pts.iter().filter(|p| p.runs > 1).map(|p| {
                    EmptyElement::at((p.x, p.hi))
                        + Text::new(
                            format!("×{}", p.runs),
                            (6, -14),
                            ("sans-serif", 11).into_font().color(&color),
                        )
                }))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .label_font(("sans-serif", 14))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
        }};
    }
    if log_y {
        let (lo, hi) = log_range(y0 * 0.8, y1 * 1.25);
        finish!(builder.build_cartesian_2d(x0..x1, (lo..hi).log_scale())?);
    } else {
        finish!(builder.build_cartesian_2d(x0..x1, 0.0..(y1 * 1.1).max(1e-9))?);
    }
    root.present()?;
    Ok(())
}

/// Returns the log axis for values in `lo..hi` (positive): the same range if a power of ten
/// lies inside it, else widened to the powers of ten around it, so that the axis has a labelled
/// tick (times of n = 4..9 between 1.6·10⁻⁴ and 3.5·10⁻⁴ s left it with none).
fn log_range(lo: f64, hi: f64) -> (f64, f64) {
    let (a, b) = (lo.log10().floor(), hi.log10().floor());
    if a < b || !(lo > 0.0 && hi.is_finite()) { (lo, hi) } else { (10f64.powf(a), 10f64.powf(a + 1.0)) }
}

/// The marker of series `i`, at pixel offset `at`: circle, triangle, square, diamond, cross,
/// then again filled/open in turn.
fn marker<DB: DrawingBackend>(
    i: usize,
    at: (i32, i32),
    color: RGBColor,
) -> DynElement<'static, DB, (i32, i32)> {
    let style = if (i / 5).is_multiple_of(2) { color.filled() } else { color.stroke_width(2) };
    let (x, y) = at;
    match i % 5 {
        0 => Circle::new((x, y), 5, style).into_dyn(),
        1 => Polygon::new(vec![(x, y - 6), (x - 6, y + 5), (x + 6, y + 5)], style).into_dyn(),
        2 => Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], style).into_dyn(),
        3 => Polygon::new(vec![(x, y - 7), (x - 6, y), (x, y + 7), (x + 6, y)], style).into_dyn(),
        _ => Cross::new((x, y), 5, color.stroke_width(2)).into_dyn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_axis_always_holds_a_power_of_ten() {
        assert_eq!(log_range(1.3e-4, 4.4e-4), (1e-4, 1e-3));
        let (lo, hi) = log_range(2e-4, 3e-2);
        assert_eq!((lo, hi), (2e-4, 3e-2));
        let (lo, hi) = log_range(12.0, 80.0);
        assert!((lo - 10.0).abs() < 1e-9 && (hi - 100.0).abs() < 1e-9, "{lo} {hi}");
    }

    #[test]
    fn powers_of_ten_are_written_with_superscripts() {
        assert_eq!(power_of_ten(0.001), "10⁻³");
        assert_eq!(power_of_ten(1.0), "10⁰");
        assert_eq!(power_of_ten(30000.0), "3×10⁴");
        assert_eq!(power_of_ten(9.99), "10¹");
    }

    #[test]
    fn spread_takes_median_least_and_greatest_of_each_x() {
        let p = spread_per_x(vec![(2.0, 5.0), (1.0, 1.0), (2.0, 3.0), (2.0, 4.0)]);
        assert_eq!(
            p,
            [
                Point { x: 1.0, y: 1.0, lo: 1.0, hi: 1.0, runs: 1 },
                Point { x: 2.0, y: 4.0, lo: 3.0, hi: 5.0, runs: 3 }
            ]
        );
    }
}
