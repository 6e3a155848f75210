import { TextDecoder } from 'node:util';
import { load } from 'cheerio';
import { imageSize } from './image-size.js';
import { clip, squash } from './html/text.js';
import { countWords } from './html/page-text.js';

export type DocumentKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'json' | 'xml' | 'font' | 'archive' | 'binary';

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
  const segment = url.pathname.split('/').filter((part) => part !== '').pop() ?? '';
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

/** Literal-string `/Title (…)` of a PDF's info dictionary, when it is in the bytes received. */
function pdfTitle(body: Buffer): string {
  const match = /\/Title\s*\(((?:\\.|[^\\)]){1,500})\)/.exec(body.toString('latin1'));
  return match?.[1] === undefined ? '' : squash(match[1].replace(/\\(.)/g, '$1'));
}

/** Title and description of an RSS/Atom feed or other XML document. */
function readXml(source: string): { title: string; description: string; text: string } {
  const $ = load(source, { xml: true });
  return {
    title: clip(squash($('title').first().text()), 500),
    description: clip(squash($('description, subtitle, summary').first().text()), 1000),
    text: squash($.root().text()),
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
  if (kind === 'image') {
    const size = imageSize(input.body);
    if (size !== undefined) Object.assign(document, size);
  } else if (kind === 'pdf') {
    title = pdfTitle(input.body);
    document.pages = input.body.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
  } else if (kind === 'text' || kind === 'json' || kind === 'xml') {
    text = decodeText(input.body, input.charset);
    if (kind === 'xml') ({ title, description, text } = readXml(text));
    if (kind === 'text') text = text.replace(/\r\n?/g, '\n');
    document.wordCount = countWords(text);
  }
  return { document, title: title || document.filename, description, text: kind === 'json' ? '' : text };
}
