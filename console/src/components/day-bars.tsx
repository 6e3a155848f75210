/**
 * Credits per day as a small SVG bar chart: one bar per day, its <title> naming the day and amount (a tooltip, and
 * read by assistive technology), and the same numbers as a table one click away for those who cannot see the bars.
 */
import { formatDay } from './ui.js';
import './day-bars.css';

export interface DayAmount {
  /** YYYY-MM-DD */
  readonly day: string;
  readonly credits: number;
}

const WIDTH = 960;
const TOP = 18; // room for the amount above the tallest bar
const BASE = 150;
const HEIGHT = 172;
/** Beyond this many days the bars get too thin for amounts above them, and only some days are named below. */
const LABELLED_DAYS = 14;

const credits = (amount: number) => `${amount.toLocaleString()} credit${amount === 1 ? '' : 's'}`;

/** An axis label in the same style as formatDay, without the weekday and year: "22 Nov". */
const shortDay = (day: string): string =>
  new Date(day).toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });

export function DayBars({ days, title }: { days: readonly DayAmount[]; title: string }) {
  const highest = Math.max(1, ...days.map((entry) => entry.credits));
  const total = days.reduce((sum, entry) => sum + entry.credits, 0);
  const slot = WIDTH / Math.max(1, days.length);
  const every = days.length <= LABELLED_DAYS ? 1 : Math.ceil(days.length / 10);
  const summary = `${title}: ${credits(total)} over ${days.length} day${days.length === 1 ? '' : 's'}`;
  return (
    <figure class="day-bars">
      <svg role="img" aria-label={summary} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="xMinYMid meet">
        <line class="base" x1={0} x2={WIDTH} y1={BASE + 0.5} y2={BASE + 0.5} />
        {days.map((entry, index) => {
          const height = entry.credits === 0 ? 0 : Math.max(2, ((BASE - TOP) * entry.credits) / highest);
          const x = index * slot;
          const middle = x + slot / 2;
          return (
            <g key={entry.day}>
              <title>{`${formatDay(entry.day, 'UTC')}: ${credits(entry.credits)}`}</title>
              {/* A full-height, invisible target, so the tooltip shows over short bars and empty days too. */}
              <rect class="hit" x={x} y={0} width={slot} height={BASE} />
              <rect class="bar" x={x + slot * 0.15} y={BASE - height} width={slot * 0.7} height={height} />
              {days.length <= LABELLED_DAYS && entry.credits > 0 ? (
                <text x={middle} y={BASE - height - 4} text-anchor="middle">
                  {entry.credits.toLocaleString()}
                </text>
              ) : null}
              {index % every === 0 ? (
                <text x={middle} y={HEIGHT - 4} text-anchor="middle">
                  {shortDay(entry.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">{summary} (UTC days).</figcaption>
      <details>
        <summary>Show as a table</summary>
        <table>
          <caption class="muted">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" class="num">
                Credits
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((entry) => (
              <tr key={entry.day}>
                <td>{entry.day}</td>
                <td class="num">{entry.credits.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
