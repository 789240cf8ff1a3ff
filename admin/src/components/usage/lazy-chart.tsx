// chart.js is loaded only when a chart is shown (its own chunk, not the main bundle).
import { lazy, Suspense, type ComponentProps } from 'react';

const Chart = lazy(() => import('./bar-chart'));

export function BarChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<div className="chart-box" aria-hidden="true" />}>
      <Chart {...props} />
    </Suspense>
  );
}
