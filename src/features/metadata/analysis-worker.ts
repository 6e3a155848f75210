/**
 * The thread page analyses run on (analysis-thread.ts): it takes one job at a time from the service's thread and
 * answers with what analyzeHtml or analyzeNonHtml made of it, so a page's parsing never holds the event loop.
 */
import { serveJobs } from '../../lib/job-thread-worker.js';
import { analyzeHtml } from './html/analyze-html.js';
import { analyzeNonHtml } from './non-html.js';
import type { AnalysisJob } from './analysis-thread.js';
import type { HtmlAnalysis } from './html/analyze-html.js';
import type { NonHtmlAnalysis } from './non-html.js';

/** A page's bytes as they arrived (structured cloning makes a Buffer a plain Uint8Array): a Buffer again, no copy. */
const bufferOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function analyze(job: AnalysisJob): HtmlAnalysis | NonHtmlAnalysis {
  if (job.kind === 'html')
    return analyzeHtml({
      body: bufferOf(job.body),
      url: new URL(job.url),
      charset: job.charset,
      contentLanguage: job.contentLanguage,
    });
  return analyzeNonHtml({
    body: bufferOf(job.body),
    truncated: job.truncated,
    url: new URL(job.url),
    mimeType: job.mimeType,
    charset: job.charset,
    headers: job.headers,
  });
}

/**
 * A page of the usual parts (headings, paragraphs, links, images, metadata), analysed once before the first job: the
 * parser's and the passes' code is then compiled and warm, so a fresh thread's first pages are not cut short by the
 * analysis' time bound (html/limits.ts) for want of it.
 */
function warmUp(): void {
  const part =
    '<h2>Part</h2><p>Some <a href="/next">linked</a> text, <em>said</em> twice. Some text.</p><img src="/i.png" alt="i">';
  const page = `<!doctype html><html lang="en"><head><title>Warm</title><meta name="description" content="d"><meta property="og:title" content="o"></head><body>${part.repeat(2000)}</body></html>`;
  analyzeHtml({ body: Buffer.from(page), url: new URL('https://warm.invalid/') });
}

warmUp();
serveJobs('analysis-worker.ts', analyze);
