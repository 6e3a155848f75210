/** POST /url-to-metadata's answer as the console shows it (docs/contract.md#url-metadata), and the summary levels it offers. */
import type { OkBody } from '../../api-types.js';

export const SUMMARY_LEVELS = [
  { level: 'none', label: 'No summary', credits: 55 },
  { level: 'short', label: 'Short summary (about 50 words)', credits: 800 },
  { level: 'medium', label: 'Medium summary (about 150 words)', credits: 800 },
  { level: 'long', label: 'Long summary (about 300 words)', credits: 800 },
] as const;
export type SummaryLevel = (typeof SUMMARY_LEVELS)[number]['level'];

/** The answer as the service documents it (the SDK's generated types); the panels still read each group defensively. */
export type MetadataAnswer = OkBody<'urlMetadata'>;

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** og:image may be a URL or an object with one (`url`, `secureUrl`), or a list of those. */
export function imageUrl(value: unknown): string | undefined {
  if (Array.isArray(value)) return imageUrl(value[0]);
  if (typeof value === 'object' && value !== null) {
    const record = value as Readonly<Record<string, unknown>>;
    return text(record.url) ?? text(record.secureUrl) ?? text(record.src);
  }
  return text(value);
}

export function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
