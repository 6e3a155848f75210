/** The parts of POST /url-to-metadata's answer the console shows (docs/contract.md#url-metadata); every group is optional. */

export const SUMMARY_LEVELS = [
  { level: 'none', label: 'No summary', credits: 55 },
  { level: 'short', label: 'Short summary (about 50 words)', credits: 800 },
  { level: 'medium', label: 'Medium summary (about 150 words)', credits: 800 },
  { level: 'long', label: 'Long summary (about 300 words)', credits: 800 },
] as const;
export type SummaryLevel = (typeof SUMMARY_LEVELS)[number]['level'];

type Loose = Readonly<Record<string, unknown>>;

export interface MetadataAnswer {
  readonly success: boolean;
  readonly timestamp?: string;
  readonly data?: {
    readonly seo?: Loose & { title?: string; description?: string; keywords?: readonly string[]; canonical?: string; language?: string; author?: string };
    readonly technical?: Loose & {
      statusCode?: number;
      finalUrl?: string;
      originalUrl?: string;
      contentType?: string;
      responseTime?: number;
      redirects?: number;
      isSecure?: boolean;
      robotsAllowed?: boolean;
    };
    readonly openGraph?: Loose;
    readonly twitterCard?: Loose;
    readonly social?: Loose;
    readonly contact?: Loose & { emails?: readonly string[]; phones?: readonly string[] };
    readonly links?: { internal?: { total?: number }; external?: { total?: number; domains?: readonly string[] } };
    readonly media?: { images?: { total?: number; withoutAlt?: number }; logo?: string };
    readonly document?: Loose & { kind?: string; mimeType?: string; size?: number | null; width?: number; height?: number; pages?: number };
    readonly ai?: {
      summary?: Loose & { contentLength?: number; truncated?: boolean };
      keyFacts?: Loose;
      model?: string;
      warning?: string;
    };
  };
}

export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** og:image may be a URL or an object with one (`url`, `secureUrl`), or a list of those. */
export function imageUrl(value: unknown): string | undefined {
  if (Array.isArray(value)) return imageUrl(value[0]);
  if (typeof value === 'object' && value !== null) {
    const record = value as Loose;
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
