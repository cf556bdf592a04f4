//! A game's evaluation graph as SVG: White's expected score after each move (moves on the
//! x axis, 0 to 100 percent on the y axis, the area under it shaded), the even line, and the
//! moves judged inaccuracies, mistakes and blunders marked in yellow, orange and red.
//! Drawn with `plotters`' SVG backend, so the file is a plain SVG any browser shows.

use super::analyse::Analysis;
use super::judge::Verdict;
use plotters::prelude::*;

const SIZE: (u32, u32) = (800, 320);

/// The colour a verdict is marked in.
fn colour(verdict: Verdict) -> RGBColor {
    match verdict {
        Verdict::Inaccuracy => RGBColor(230, 190, 0),
        Verdict::Mistake => RGBColor(240, 120, 0),
        Verdict::Blunder => RGBColor(210, 0, 0),
    }
}

/// The graph of `analysis` under `title`, as SVG text.
pub fn svg(title: &str, analysis: &Analysis) -> Result<String, String> {
    let chances = analysis.white_chances();
    // x: the move the ply belongs to, White's moves at the half.
    let start = analysis.boards.first().map_or(0, |b| {
        2 * (usize::from(b.fullmove_number()).max(1) - 1)
            + usize::from(b.side_to_move() == crate::types::Color::Black)
    });
    let x = |ply: usize| (start + ply + 1) as f64 / 2.0;
    let points: Vec<(f64, f64)> = chances.iter().map(|&(ply, c)| (x(ply), c)).collect();
    let marks: Vec<(f64, f64, Verdict)> = chances
        .iter()
        .filter_map(|&(ply, c)| {
            let verdict = analysis.judged[ply].as_ref()?.verdict?;
            Some((x(ply), c, verdict))
        })
        .collect();
    let first = points.first().map_or(0.0, |p| p.0 - 0.5).max(0.0);
    let last = points.last().map_or(1.0, |p| p.0).max(first + 1.0);

    let mut text = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(first..last, 0.0..100.0)?;
        chart
            .configure_mesh()
            .x_desc("move")
            .y_desc("White's expected score, %")
            .light_line_style(WHITE)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        chart.draw_series(AreaSeries::new(
            points.iter().copied(),
            0.0,
            RGBColor(60, 60, 60).mix(0.25),
        ))?;
        chart.draw_series(LineSeries::new(
            [(first, 50.0), (last, 50.0)],
            RGBColor(150, 150, 150),
        ))?;
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            BLACK.stroke_width(2),
        ))?;
        for verdict in [Verdict::Inaccuracy, Verdict::Mistake, Verdict::Blunder] {
            let series = chart.draw_series(
                marks
                    .iter()
                    .filter(|m| m.2 == verdict)
                    .map(|&(x, y, _)| Circle::new((x, y), 5, colour(verdict).filled())),
            )?;
            series
                .label(verdict.name())
                .legend(move |(x, y)| Circle::new((x, y), 5, colour(verdict).filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(RGBColor(150, 150, 150))
            .draw()?;
        root.present()?;
        Ok(())
    })();
    drawn.map_err(|e| format!("cannot draw the graph: {e}"))?;
    Ok(text)
}
