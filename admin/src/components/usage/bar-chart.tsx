// A small React wrapper around chart.js: a (stacked) bar chart drawn on a canvas, with its
// numbers in a visually hidden table so screen-reader users get what the picture shows.
// Only the chart.js parts used here are registered, so the rest is tree-shaken away.
import { useEffect, useRef, useState } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSeries {
  label: string;
  data: number[];
  /** A CSS custom property holding the colour (each theme defines its own, see usage.css). */
  colorVar: string;
}

/** Follows the light/dark preference, so the chart repaints with the other theme's colours. */
function useColorScheme(): 'light' | 'dark' {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const on = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener('change', on);
    return () => query.removeEventListener('change', on);
  }, [query]);
  return dark ? 'dark' : 'light';
}

export default function BarChart({ title, labels, series, stacked = true, testId, unit = 'fetches' }: {
  /** The canvas's accessible name and the hidden table's caption. */
  title: string;
  labels: string[];
  series: BarSeries[];
  stacked?: boolean;
  testId?: string;
  unit?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();
  const key = JSON.stringify([labels, series]);

  useEffect(() => {
    if (!canvas.current) return;
    const css = getComputedStyle(document.documentElement);
    const v = (name: string) => css.getPropertyValue(name).trim();
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    Chart.defaults.font.family = getComputedStyle(canvas.current).fontFamily; // the page's font, not Helvetica
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.data, backgroundColor: v(s.colorVar), borderWidth: 0 })) },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: reduced ? false : { duration: 250 },
        scales: {
          x: { stacked, ticks: { color: v('--muted'), maxRotation: 0, autoSkip: true }, grid: { display: false }, border: { color: v('--border-strong') } },
          y: { stacked, beginAtZero: true, ticks: { color: v('--muted'), precision: 0 }, grid: { color: v('--border') }, border: { display: false } },
        },
        plugins: {
          legend: { display: series.length > 1, labels: { color: v('--text'), boxWidth: 12 } },
          tooltip: { mode: 'index', intersect: false },
        },
      },
    });
    return () => chart.destroy();
  }, [key, stacked, scheme]); // eslint-disable-line react-hooks/exhaustive-deps

  const totals = labels.map((_, i) => series.reduce((n, s) => n + (s.data[i] ?? 0), 0));
  const sum = totals.reduce((a, b) => a + b, 0);
  const rows = labels.map((l, i) => ({ l, i })).filter(({ i }) => totals[i]! > 0);
  return (
    <figure className="chart" data-testid={testId}>
      <div className="chart-box">
        <canvas ref={canvas} role="img" aria-label={`${title}: ${sum} ${unit} in all; the table that follows has the numbers`} />
      </div>
      {/* Hidden by a wrapper: a table ignores width: 1px and would widen the page on a phone. */}
      <div className="sr-only">
        <table data-testid={testId ? `${testId}-table` : undefined}>
          <caption>{title} (periods without {unit} left out)</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {series.length > 1 && series.map((s) => <th scope="col" key={s.label}>{s.label}</th>)}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ l, i }) => (
              <tr key={l}>
                <th scope="row">{l}</th>
                {series.length > 1 && series.map((s) => <td key={s.label}>{s.data[i] ?? 0}</td>)}
                <td>{totals[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
