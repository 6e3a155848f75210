/** Small pieces every page uses: titles, errors, costs, raw JSON, copying. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export { relativeTime } from './relative-time.js';

/** The page's heading; takes focus when the page opens, so keyboard and screen-reader users land on it. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · coinop console`;
    heading.current?.focus();
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children}
    </h1>
  );
}

export function ErrorNote({ error }: { error: string | undefined }) {
  if (error === undefined) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

export function Loading({ when }: { when: boolean }) {
  return when ? (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  ) : null;
}

/** "Costs 5 credits" before a paid action runs. */
export function CostHint({ credits }: { credits: number }) {
  return <span class="cost">{credits === 0 ? 'Free' : `Costs ${plural(credits, 'credit')}`}</span>;
}

/** What the last call cost and the balance after it, from x-cost / x-balance. */
export function Charged({ cost, balance }: { cost: number | undefined; balance: number | undefined }) {
  if (cost === undefined) return null;
  return (
    <p class="muted" aria-live="polite">
      Charged {plural(cost, 'credit')}
      {balance === undefined ? '' : `; balance ${balance.toLocaleString()}`}.
    </p>
  );
}

/** The raw JSON answer, one click away. */
export function JsonView({ value, summary = 'Raw JSON' }: { value: unknown; summary?: string }) {
  return (
    <details class="json">
      <summary>{summary}</summary>
      <pre tabIndex={0}>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** Copies `text`; the clipboard API needs a secure context, so on plain HTTP the text is selected for Ctrl+C instead. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
    } catch {
      field.current?.select();
    }
  };
  return (
    <span class="copy">
      <input
        ref={field}
        readOnly
        value={text}
        aria-label={`${label}: value`}
        onFocus={(event) => event.currentTarget.select()}
      />
      <button type="button" onClick={() => void copy()}>
        {done ? 'Copied' : label}
      </button>
    </span>
  );
}

/** "1 bucket", "2 buckets", "1,000 credits": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : pluralForm}`;
}

/** The reader's time zone (the one every instant is shown in unless a page says otherwise). */
export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const instantFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The console's one way to write an instant: "Sat, 28 Nov 2026, 03:25:07 CET", always with its zone (the reader's
 * unless `timeZone` names another, as a schedule's runs do). Pages that show a date only use formatDay.
 */
export function formatInstant(when: string | number | Date, timeZone = viewerZone()): string {
  let format = instantFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    instantFormats.set(timeZone, format);
  }
  return format.format(new Date(when));
}

/** A day in the same style: "Sat, 28 Nov 2026" (in UTC for the service's UTC days, given as YYYY-MM-DD). */
export function formatDay(when: string | number | Date, timeZone = viewerZone()): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(when));
}
