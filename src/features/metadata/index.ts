/** What the URL-metadata feature offers the others; everything else in this folder is its own. */
export { MetadataRequest } from './metadata.schemas.js';
export { parsePageUrl, refusedPageAddress } from './page-fetch.js';
