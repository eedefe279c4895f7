//! `nqueens-plot`: renders the study CSVs of `scripts/` as SVG and PNG, with the plotters crate and a
//! bundled font (DejaVu Sans, assets/fonts/), so no system package is needed.
//!
//! Usage: `cargo run --release --bin nqueens-plot -- FILE.csv...` (behind the `plot` feature, so
//! that a library build with `default-features = false` compiles no plotters).
//!
//! - `scaling-threads.csv` (from scripts/scaling-threads.sh): `<stem>-speedup.{svg,png}` (speedup
//!   over one thread, median of the repeats, with the ideal linear line) and
//!   `<stem>-nodes-per-second.{svg,png}` (search nodes per wall-clock second per thread count).
//! - `scaling-n.csv` (from scripts/scaling-n.sh): `<stem>-time.{svg,png}` (seconds and nodes per
//!   n, log scale).
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
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

type Res<T> = Result<T, Box<dyn Error>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        let help = "Usage: nqueens-plot FILE.csv...\nRenders scaling-threads.csv and scaling-n.csv (from scripts/) as SVG and PNG beside each file.";
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
    if table.has("repeat") && table.has("threads") {
        Ok(plot_threads(&table, &stem)?)
    } else if table.has("seconds_growth") {
        Ok(plot_n(&table, &stem)?)
    } else {
        Err(PlotError::Usage(
            "unknown layout: expected the header of scripts/scaling-threads.sh or scripts/scaling-n.sh"
                .into(),
        ))
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// Returns the points sorted by x, with the y values of a repeated x replaced by their median
/// (a CSV that several runs appended to draws one line, not a zig-zag).
fn median_per_x(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut by_x: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (x, y) in points {
        by_x.entry(x.round() as i64).or_default().push(y);
    }
    by_x.into_iter().map(|(x, ys)| (x as f64, median(ys))).collect()
}

/// A named line: (x, y) points.
type Series = (String, Vec<(f64, f64)>);

/// Runs of one (algorithm, n): threads -> (seconds, nodes) of each repeat.
type RunsByThreads = BTreeMap<u32, Vec<(f64, f64)>>;

/// Per algorithm: (n, seconds) and (n, nodes) points.
type PerN = (Vec<(f64, f64)>, Vec<(f64, f64)>);

fn plot_threads(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    // (algorithm, n) -> threads -> seconds of each repeat (and nodes).
    let mut runs: BTreeMap<(String, String), RunsByThreads> = BTreeMap::new();
    for row in &t.rows {
        let key = (t.text(row, "algorithm")?.to_string(), t.text(row, "n")?.to_string());
        let threads = t.num(row, "threads")? as u32;
        runs.entry(key)
            .or_default()
            .entry(threads)
            .or_default()
            .push((t.num(row, "seconds")?, t.num(row, "nodes")?));
    }
    let mut speedup: Vec<Series> = Vec::new();
    let mut rate: Vec<Series> = Vec::new();
    let mut max_threads = 1.0f64;
    for ((algorithm, n), by_threads) in &runs {
        let medians: Vec<(f64, f64, f64)> = by_threads
            .iter()
            .map(|(&th, v)| {
                (th as f64, median(v.iter().map(|x| x.0).collect()), median(v.iter().map(|x| x.1).collect()))
            })
            .collect();
        let base = medians.iter().find(|m| m.0 == 1.0).map(|m| m.1).unwrap_or(medians[0].1 * medians[0].0);
        let label = format!("{algorithm}, n = {n}");
        speedup.push((label.clone(), medians.iter().map(|m| (m.0, base / m.1)).collect()));
        rate.push((label, medians.iter().map(|m| (m.0, m.2 / m.1 / 1e6)).collect()));
        max_threads = max_threads.max(medians.iter().map(|m| m.0).fold(1.0, f64::max));
    }
    let ideal: Series =
        ("ideal (linear)".into(), (1..=max_threads as u32).map(|x| (x as f64, x as f64)).collect());
    let mut with_ideal = speedup.clone();
    with_ideal.push(ideal);
    let mut out = Vec::new();
    out.extend(render(
        stem,
        "speedup",
        "Speedup over one thread (median)",
        "threads",
        "speedup",
        &with_ideal,
        false,
    )?);
    out.extend(render(
        stem,
        "nodes-per-second",
        "Search nodes per second",
        "threads",
        "Mnodes/s",
        &rate,
        false,
    )?);
    Ok(out)
}

fn plot_n(t: &Table, stem: &Path) -> Res<Vec<PathBuf>> {
    let mut by_algo: BTreeMap<String, PerN> = BTreeMap::new();
    for row in &t.rows {
        let e = by_algo.entry(t.text(row, "algorithm")?.to_string()).or_default();
        let n = t.num(row, "n")?;
        e.0.push((n, t.num(row, "seconds")?.max(1e-6)));
        e.1.push((n, t.num(row, "nodes")?.max(1.0)));
    }
    let (mut secs, mut nodes): (Vec<Series>, Vec<Series>) = (Vec::new(), Vec::new());
    for (algorithm, (s, n)) in by_algo {
        secs.push((algorithm.clone(), median_per_x(s)));
        nodes.push((algorithm, median_per_x(n)));
    }
    let mut out =
        render(stem, "time", "Wall seconds per board size", "n", "seconds (log scale)", &secs, true)?;
    out.extend(render(stem, "nodes", "Search nodes per board size", "n", "nodes (log scale)", &nodes, true)?);
    Ok(out)
}

/// Draws `series` as an SVG and a PNG named `<stem>-<name>`; returns the two paths.
fn render(
    stem: &Path,
    name: &str,
    title: &str,
    x: &str,
    y: &str,
    series: &[Series],
    log_y: bool,
) -> Res<Vec<PathBuf>> {
    let base = format!("{}-{name}", stem.display());
    let (svg, png) = (PathBuf::from(format!("{base}.svg")), PathBuf::from(format!("{base}.png")));
    draw(SVGBackend::new(&svg, (800, 500)).into_drawing_area(), title, x, y, series, log_y)?;
    draw(BitMapBackend::new(&png, (800, 500)).into_drawing_area(), title, x, y, series, log_y)?;
    Ok(vec![svg, png])
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    log_y: bool,
) -> Res<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let points = series.iter().flat_map(|s| s.1.iter());
    let (x0, x1) = points.clone().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.0), a.1.max(p.0)));
    let (y0, y1) = points.fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.1), a.1.max(p.1)));
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { (x0 - 1.0, x1 + 1.0) };
    let mut builder = ChartBuilder::on(&root);
    builder.caption(title, ("sans-serif", 22)).margin(12).x_label_area_size(40).y_label_area_size(70);
    let colors = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .x_labels(((x1 - x0) as usize + 1).min(24))
                .y_label_formatter(&|v| if log_y { format!("{v:.0e}") } else { format!("{v:.1}") })
                .label_style(("sans-serif", 14))
                .draw()?;
            for (i, (label, pts)) in series.iter().enumerate() {
                let pts: Vec<(f64, f64)> = pts.iter().copied().filter(|p| !log_y || p.1 > 0.0).collect();
                let color = colors[i % colors.len()];
                chart
                    .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))?
                    .label(label.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .label_font(("sans-serif", 14))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()?;
        }};
    }
    if log_y {
        finish!(builder.build_cartesian_2d(x0..x1, (y0 * 0.8..y1 * 1.25).log_scale())?);
    } else {
        finish!(builder.build_cartesian_2d(x0..x1, 0.0..(y1 * 1.1).max(1e-9))?);
    }
    root.present()?;
    Ok(())
}
