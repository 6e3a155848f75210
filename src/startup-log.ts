import type { Config } from './config.js';
import { databaseLocation } from './startup-checks.js';

/** What an operator needs to see at start: where the data is, where to reach it, which optional parts are on. */
export interface StartupSummary {
  readonly fields: Readonly<Record<string, string>>;
  /** Settings that work but are probably not what the operator meant. */
  readonly warnings: readonly string[];
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Scheme, host and port of a URL: never its user, password, path or query. */
function origin(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

function stripeState(stripe: Config['stripe']): { state: string; warning?: string } {
  const checkout = stripe.secretKey !== undefined && (stripe.price1m !== undefined || stripe.price3m !== undefined);
  const links = stripe.paymentLink1m !== undefined || stripe.paymentLink3m !== undefined;
  const anySet = Object.values(stripe).some((value) => value !== undefined);
  if (stripe.webhookSecret !== undefined && (checkout || links))
    return { state: checkout ? 'on (Checkout)' : 'on (Payment Links)' };
  if (!anySet) return { state: 'off' };
  const missing =
    stripe.webhookSecret === undefined
      ? 'STRIPE_WEBHOOK_SECRET'
      : 'STRIPE_SECRET_KEY with STRIPE_PRICE_1M/_3M, or STRIPE_PAYMENT_LINK_1M/_3M';
  return { state: 'off', warning: `Stripe settings are incomplete (${missing} missing): /recharge answers 501` };
}

/** `ports`: what the listeners got (PORT=0 and SMTP_PORT from a test's options differ from the settings). */
export function startupSummary(
  config: Config,
  ports: { readonly http: number; readonly smtp: number | null },
  inboundRelay: boolean,
): StartupSummary {
  const warnings: string[] = [];
  const reachableHost = WILDCARD_HOSTS.has(config.host) ? 'localhost' : urlHost(config.host);
  // PUBLIC_URL when the operator set it; otherwise where this machine reaches the listener.
  const base =
    config.publicUrl === `http://localhost:${config.port}` ? `http://${reachableHost}:${ports.http}` : config.publicUrl;
  const stripe = stripeState(config.stripe);
  if (stripe.warning !== undefined) warnings.push(stripe.warning);
  if (ports.smtp !== null && config.mailDomain === 'localhost') {
    warnings.push(
      'MAIL_DOMAIN is localhost: mailbox addresses r_…@localhost cannot receive mail from other machines; set MAIL_DOMAIN to a domain whose MX points here',
    );
  }
  if (config.aiModel !== undefined && config.aiBaseUrl === undefined && config.aiApiKey === undefined) {
    warnings.push('AI_MODEL is set but neither AI_BASE_URL nor AI_API_KEY: the built-in summarizer is used');
  }
  const ai =
    config.aiBaseUrl === undefined && config.aiApiKey === undefined
      ? 'off (built-in summarizer)'
      : `${config.aiBaseUrl === undefined ? 'OpenAI' : origin(config.aiBaseUrl)}${config.aiModel === undefined ? '' : ` model ${config.aiModel}`}`;
  return {
    fields: {
      data: databaseLocation(config.databaseUrl),
      http: `http://${urlHost(config.host)}:${ports.http}`,
      docs: `${base}/docs`,
      smtp: ports.smtp === null ? 'off' : `${urlHost(config.smtpHost)}:${ports.smtp} for @${config.mailDomain}`,
      inboundRelay: inboundRelay ? 'on (POST /inbound/raw)' : 'off',
      outboundMail:
        config.smtpUrl === undefined
          ? 'off (notification e-mails are logged, not sent)'
          : `${origin(config.smtpUrl)} from ${config.notifyFrom}`,
      ai,
      stripe: stripe.state,
      operatorApi: config.adminToken === undefined ? 'off' : 'on',
    },
    warnings,
  };
}
