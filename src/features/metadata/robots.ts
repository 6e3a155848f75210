import robotsParserModule from 'robots-parser';
import type { Outbound } from '../../outbound/outbound-client.js';
import type { Clock } from '../../lib/time.js';
import { MINUTE } from '../../lib/time.js';

// robots-parser is CommonJS (`module.exports = fn`) but its typings declare a default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The user-agent token robots.txt rules are matched against. */
const ROBOTS_AGENT = 'coinop';

export interface RobotsOptions {
  /** How long a fetched robots.txt is believed. */
  ttlMs?: number;
  /** How long a failed fetch (which means "disallow all") is believed. */
  errorTtlMs?: number;
  maxEntries?: number;
  headers?: Record<string, string>;
}

type Verdict = (url: string) => boolean;

interface Entry {
  readonly expiresAt: number;
  readonly verdict: Promise<Verdict>;
}

/** RFC 9309 asks crawlers to read at least 500 KiB. */
const MAX_ROBOTS_BYTES = 512 * 1024;
/** robots.txt is a small file: a host that cannot serve it in 5 s is treated like one that failed. */
const ROBOTS_TIMEOUT_MS = 5000;
/**
 * robots-parser matches a rule with wildcards in time proportional to the rule's length after its first `*`
 * times the URL's length. Wildcard rules beyond this many such characters are ignored, and URLs are matched
 * on their first MAX_MATCHED_URL characters, so one check stays within a few tens of millions of steps.
 */
const MAX_WILDCARD_CHARS = 8 * 1024;
const MAX_MATCHED_URL = 2048;
const allowAll: Verdict = () => true;
const disallowAll: Verdict = () => false;

/** The robots.txt text with wildcard rules past the MAX_WILDCARD_CHARS budget blanked out (lines kept, so numbering holds). */
export function boundedRules(text: string): string {
  let spent = 0;
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const colon = line.indexOf(':');
      const field = line.slice(0, Math.max(colon, 0)).trim().toLowerCase();
      if (field !== 'allow' && field !== 'disallow') return line;
      const rule = line.slice(colon + 1).split('#')[0] ?? '';
      const star = rule.indexOf('*');
      if (star === -1) return line;
      spent += rule.length - star;
      return spent > MAX_WILDCARD_CHARS ? '' : line;
    })
    .join('\n');
}

/**
 * robots.txt per origin, fetched through the outbound client and kept for a while (RFC 9309 §2.4 suggests
 * at most a day; we keep it shorter). Concurrent checks of one origin share one fetch. Held per app
 * instance, never in module state.
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly errorTtlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly outbound: Outbound,
    private readonly clock: Clock,
    private readonly options: RobotsOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10 * MINUTE;
    this.errorTtlMs = options.errorTtlMs ?? MINUTE;
    this.maxEntries = options.maxEntries ?? 1000;
  }

  /** Whether our agent may fetch `url` according to its origin's robots.txt. Never rejects. */
  async isAllowed(url: URL): Promise<boolean> {
    try {
      const verdict = await this.verdictFor(url.origin);
      return verdict(url.href);
    } catch {
      return false;
    }
  }

  private verdictFor(origin: string): Promise<Verdict> {
    const now = this.clock.now();
    const cached = this.entries.get(origin);
    if (cached !== undefined && cached.expiresAt > now) return cached.verdict;
    this.entries.delete(origin);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const verdict = this.fetchVerdict(origin).then(({ verdict: found, failed }) => {
      // Failures are re-checked sooner than answers.
      if (failed)
        this.entries.set(origin, { expiresAt: this.clock.now() + this.errorTtlMs, verdict: Promise.resolve(found) });
      return found;
    });
    this.entries.set(origin, { expiresAt: now + this.ttlMs, verdict });
    return verdict;
  }

  private async fetchVerdict(origin: string): Promise<{ verdict: Verdict; failed: boolean }> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const res = await this.outbound.request({
        url: robotsUrl,
        method: 'GET',
        allowHttp: true,
        maxResponseBytes: MAX_ROBOTS_BYTES,
        timeoutMs: ROBOTS_TIMEOUT_MS,
        headers: { accept: 'text/plain, */*;q=0.5', ...this.options.headers },
      });
      // RFC 9309 §2.3.1: 2xx is the rules; 4xx means there are none; 5xx means the site is unavailable (disallow all).
      if (res.status >= 200 && res.status < 300) {
        const robots = robotsParser(robotsUrl, boundedRules(res.body.toString('utf8')));
        return {
          verdict: (url) => robots.isAllowed(url.slice(0, MAX_MATCHED_URL), ROBOTS_AGENT) !== false,
          failed: false,
        };
      }
      if (res.status >= 400 && res.status < 500) return { verdict: allowAll, failed: false };
      return { verdict: disallowAll, failed: true };
    } catch {
      return { verdict: disallowAll, failed: true };
    }
  }
}
