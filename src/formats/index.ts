/** Public API of the formats feature: payload shapes, adapters, template engine, save-time checks. */
export {
  WEBHOOK_FORMATS,
  isWebhookFormat,
  type AttachmentMeta,
  type EmailAddress,
  type InboundEmailPayload,
  type LowBalanceEvent,
  type LowBalancePayload,
  type ScheduledRunPayload,
  type WebhookFormat,
} from './payloads.js';
export {
  formatEmail,
  formatLowBalance,
  lowBalancePayload,
  type FormatSettings,
  type LowBalanceFormatSettings,
} from './adapters.js';
export {
  RENDER_MAX_BYTES,
  TEMPLATE_MAX_BYTES,
  TEMPLATE_MAX_DEPTH,
  TemplateTooLarge,
  renderTemplate,
  renderTemplateWithin,
  validateTemplate,
  type RenderOptions,
  type Rendered,
} from './template-engine.js';
export { fitJsonString, jsonBytes, jsonStringBytes } from './json-size.js';
export {
  OPTIONS_MAX_KEYS,
  OPTION_VALUE_MAX_CHARS,
  redactOptions,
  validateFormatConfig,
  type FormatConfigInput,
} from './format-config.js';
export { lowBalanceSentence, plainBody } from './message.js';
export { htmlToText } from './html-text.js';
