import { TextDecoder } from 'node:util';
import { imageSize } from './image-size.js';
import { AnalysisBudget } from './html/limits.js';
import type { AnalysisLimit } from './html/limits.js';
import { parseMarkup, textOf } from './html/markup.js';
import { clip, squash } from './html/text.js';
import { countWords } from './html/page-text.js';

export type DocumentKind =
  'image' | 'video' | 'audio' | 'pdf' | 'text' | 'json' | 'xml' | 'font' | 'archive' | 'binary';

/** What can be said about a response that is not an HTML page. */
export interface DocumentInfo {
  kind: DocumentKind;
  mimeType: string;
  /** From content-disposition, else the last path segment, else `''`. */
  filename: string;
  /** content-length when the server sent one, else the bytes received (null when the body was cut at the cap). */
  size: number | null;
  width?: number;
  height?: number;
  format?: string;
  /** PDF only: page objects counted in the bytes received. */
  pages?: number;
  wordCount?: number;
}

export interface NonHtmlAnalysis {
  document: DocumentInfo;
  title: string;
  description: string;
  /** Text content for text-like documents, `''` otherwise. */
  text: string;
  /** Set when an XML document outgrew a bound of the analysis (html/limits.ts). */
  limit?: AnalysisLimit;
}

export interface NonHtmlInput {
  body: Buffer;
  truncated: boolean;
  url: URL;
  mimeType: string;
  charset?: string;
  headers: Readonly<Record<string, string>>;
}

const MAX_TEXT_CHARS = 200_000;

function kindOf(mimeType: string): DocumentKind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('font/')) return 'font';
  if (mimeType === 'application/pdf') return 'pdf';
  if (mimeType === 'application/json' || mimeType.endsWith('+json')) return 'json';
  if (mimeType === 'application/xml' || mimeType === 'text/xml' || mimeType.endsWith('+xml')) return 'xml';
  if (mimeType.startsWith('text/')) return 'text';
  if (/zip|tar|gzip|x-7z|rar|bzip/.test(mimeType)) return 'archive';
  return 'binary';
}

function filenameOf(url: URL, disposition: string | undefined): string {
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition ?? '')?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition ?? '')?.[1];
  const fromHeader = star ?? plain;
  if (fromHeader !== undefined) {
    try {
      return squash(decodeURIComponent(fromHeader));
    } catch {
      return squash(fromHeader);
    }
  }
  const segment =
    url.pathname
      .split('/')
      .filter((part) => part !== '')
      .pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function decodeText(body: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body.subarray(0, MAX_TEXT_CHARS * 4)).slice(0, MAX_TEXT_CHARS);
}

/** PDF title strings are short; a `/Title (` without its `)` this soon is not one. */
const MAX_PDF_TITLE = 500;
/** `/Title` occurrences tried: each costs up to MAX_PDF_TITLE steps, so the search stays linear. */
const MAX_PDF_TITLE_TRIES = 20;

/** Literal-string `/Title (…)` of a PDF's info dictionary, when it is in the bytes received. A scan, not a regex: linear. */
function pdfTitle(body: Buffer): string {
  const source = body.toString('latin1');
  let from = 0;
  for (let tries = 0; tries < MAX_PDF_TITLE_TRIES; tries += 1) {
    const at = source.indexOf('/Title', from);
    if (at === -1) return '';
    from = at + '/Title'.length;
    let i = from;
    while (i < source.length && /\s/.test(source.charAt(i)) && i - from < 100) i += 1;
    if (source.charAt(i) !== '(') continue;
    let title = '';
    for (let j = i + 1; j < source.length && j - i <= MAX_PDF_TITLE + 1; j += 1) {
      const char = source.charAt(j);
      if (char === ')') return title === '' ? '' : squash(title);
      if (char === '\\' && j + 1 < source.length) {
        j += 1;
        title += source.charAt(j);
      } else title += char;
    }
  }
  return '';
}

/** Title and description of an RSS/Atom feed or other XML document, read within the analysis bounds. */
function readXml(source: string): { title: string; description: string; text: string; limit?: AnalysisLimit } {
  const budget = new AnalysisBudget();
  const xml = parseMarkup(source, budget, { xml: true });
  const first = (...tags: string[]) => {
    const element = xml.elementsOf(...tags)[0];
    return element === undefined ? '' : squash(textOf(element, 4000));
  };
  return {
    title: clip(first('title'), 500),
    description: clip(first('description', 'subtitle', 'summary'), 1000),
    text: squash(textOf(xml.root, MAX_TEXT_CHARS, Number.POSITIVE_INFINITY)),
    ...(budget.limit === undefined ? {} : { limit: budget.limit }),
  };
}

export function analyzeNonHtml(input: NonHtmlInput): NonHtmlAnalysis {
  const kind = kindOf(input.mimeType);
  const declaredLength = Number.parseInt(input.headers['content-length'] ?? '', 10);
  const document: DocumentInfo = {
    kind,
    mimeType: input.mimeType,
    filename: filenameOf(input.url, input.headers['content-disposition']),
    size: Number.isFinite(declaredLength) ? declaredLength : input.truncated ? null : input.body.length,
  };
  let title = '';
  let description = '';
  let text = '';
  let limit: AnalysisLimit | undefined;
  if (kind === 'image') {
    const size = imageSize(input.body);
    if (size !== undefined) Object.assign(document, size);
  } else if (kind === 'pdf') {
    title = pdfTitle(input.body);
    document.pages = input.body.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
  } else if (kind === 'text' || kind === 'json' || kind === 'xml') {
    text = decodeText(input.body, input.charset);
    if (kind === 'xml') ({ title, description, text, limit } = readXml(text));
    if (kind === 'text') text = text.replace(/\r\n?/g, '\n');
    document.wordCount = countWords(text);
  }
  return {
    document,
    title: title || document.filename,
    description,
    text: kind === 'json' ? '' : text,
    ...(limit === undefined ? {} : { limit }),
  };
}
