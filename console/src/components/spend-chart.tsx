/**
 * A stacked bar chart of credits spent per period and category, drawn as SVG by hand: a chart library would outweigh
 * the whole console. Each segment has a <title> (hover), the figure an aria-label summary, and the same numbers are one
 * click away as a table for screen readers and copying.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { axisTicks, dayLabel, hourLabel, periodLabel } from './spend-series.js';
import type { SpendView } from './spend-series.js';
import './spend-chart.css';

const WIDTH = 960;
const HEIGHT = 260;
const LEFT = 52;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 40;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

const plural = (count: number, word: string): string => `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;

/** "12 credits: kv 10, token 2" — the chart's summary, also its accessible name. */
export function spendSummary(view: SpendView, range: string): string {
  if (view.total === 0) return `No credits spent in ${range}.`;
  const parts = view.categories.map((category) => `${category} ${(view.totals.get(category) ?? 0).toLocaleString()}`);
  return `${plural(view.total, 'credit')} spent in ${range}: ${parts.join(', ')}.`;
}

export function SpendChart({ view, range }: { view: SpendView; range: string }) {
  const summary = spendSummary(view, range);
  return (
    <figure class="spend">
      <figcaption data-testid="spend-summary" aria-live="polite">
        {summary}
      </figcaption>
      {view.total === 0 ? null : (
        <>
          <Bars view={view} summary={summary} />
          <Legend view={view} />
          <SpendTable view={view} />
        </>
      )}
    </figure>
  );
}

function Bars({ view, summary }: { view: SpendView; summary: string }) {
  const ticks = axisTicks(Math.max(...view.periods.map((period) => period.total)));
  const top = ticks[ticks.length - 1] ?? 1;
  const slot = PLOT_W / Math.max(view.periods.length, 1);
  const barWidth = Math.max(slot * 0.72, 1);
  const y = (credits: number): number => TOP + PLOT_H - (credits / top) * PLOT_H;
  // Opened at its newest end: on a narrow screen, today's bars are what is in view, the older ones a scroll away.
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element !== null) element.scrollLeft = element.scrollWidth;
  }, [view]);
  return (
    // Scrolls sideways on a narrow screen rather than shrinking its labels out of reach.
    <div class="spend-scroll" tabIndex={0} role="region" aria-label="Chart" ref={scroller}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Bar chart. ${summary}`} class="spend-bars">
        {ticks.map((tick) => (
          <g key={tick} class="tick">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
            <text x={LEFT - 6} y={y(tick) + 4} text-anchor="end">
              {tick.toLocaleString()}
            </text>
          </g>
        ))}
        {view.periods.map((period, index) => {
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={period.start}>
              {view.categories.map((category) => {
                const credits = period.credits.get(category) ?? 0;
                if (credits === 0) return null;
                const from = base;
                base += credits;
                return (
                  <rect
                    key={category}
                    class={`segment c-${category}`}
                    x={x}
                    width={barWidth}
                    y={y(base)}
                    height={y(from) - y(base)}
                  >
                    <title>{`${periodLabel(view.by, period.start)} UTC: ${category}, ${plural(credits, 'credit')}`}</title>
                  </rect>
                );
              })}
              <XLabel view={view} index={index} x={LEFT + index * slot + slot / 2} />
            </g>
          );
        })}
        <line class="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={TOP + PLOT_H} y2={TOP + PLOT_H} />
      </svg>
    </div>
  );
}

/** Every day; for hours, every 6th hour with the date under midnight on a 2-day chart, every midnight on a longer one. */
function XLabel({ view, index, x }: { view: SpendView; index: number; x: number }) {
  const period = view.periods[index];
  if (period === undefined) return null;
  const hour = new Date(period.start).getUTCHours();
  const every = view.periods.length > 72 ? 24 : 6;
  if (view.by === 'hour' && hour % every !== 0) return null;
  const lines =
    view.by === 'day' || every === 24
      ? [dayLabel(period.start)]
      : hour === 0
        ? [hourLabel(period.start), dayLabel(period.start)]
        : [hourLabel(period.start)];
  return (
    <text class="x-label" x={x} y={TOP + PLOT_H + 16} text-anchor="middle">
      {lines.map((line, number) => (
        <tspan key={line} x={x} dy={number === 0 ? 0 : 14}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

function Legend({ view }: { view: SpendView }) {
  return (
    <ul class="legend" aria-label="Categories">
      {view.categories.map((category) => (
        <li key={category}>
          <span class={`swatch c-${category}`} aria-hidden="true" />
          {category} <span class="muted">{(view.totals.get(category) ?? 0).toLocaleString()}</span>
        </li>
      ))}
    </ul>
  );
}

function SpendTable({ view }: { view: SpendView }) {
  const rows = view.periods.filter((period) => period.total > 0);
  return (
    <details class="spend-table">
      <summary>Show as table</summary>
      <div class="spend-scroll" tabIndex={0} role="region" aria-label="Credits per period">
        <table>
          <caption class="muted">
            Credits per {view.by === 'day' ? 'UTC day' : 'UTC hour'} and category; periods without spending left out.
          </caption>
          <thead>
            <tr>
              <th scope="col">{view.by === 'day' ? 'Day' : 'Hour'} (UTC)</th>
              {view.categories.map((category) => (
                <th scope="col" class="num" key={category}>
                  {category}
                </th>
              ))}
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((period) => (
              <tr key={period.start}>
                <th scope="row">{periodLabel(view.by, period.start)}</th>
                {view.categories.map((category) => (
                  <td class="num" key={category}>
                    {(period.credits.get(category) ?? 0).toLocaleString()}
                  </td>
                ))}
                <td class="num">{period.total.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
