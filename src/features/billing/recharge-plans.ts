import type { Config } from '../../config.js';

/** `GET /recharge?amount=` values: millions of credits. */
export const RECHARGE_AMOUNTS = ['1', '3'] as const;
export type RechargeAmount = (typeof RECHARGE_AMOUNTS)[number];

export const CREDITS_BY_AMOUNT: Readonly<Record<RechargeAmount, number>> = { '1': 1_000_000, '3': 3_000_000 };
const ALLOWED_CREDITS = new Set(Object.values(CREDITS_BY_AMOUNT));

/** How a recharge of one amount is paid: a Checkout Session we create, or the operator's Payment Link. */
export type RechargeRoute =
  | { readonly kind: 'checkout'; readonly price: string; readonly credits: number }
  | { readonly kind: 'payment-link'; readonly url: string; readonly credits: number };

/**
 * Nothing is sold that cannot be credited: without STRIPE_WEBHOOK_SECRET no payment could ever reach a
 * wallet, so recharge counts as not configured. Checkout (secret key and price) wins over a Payment Link.
 */
export function rechargeRoute(stripe: Config['stripe'], amount: RechargeAmount): RechargeRoute | undefined {
  if (stripe.webhookSecret === undefined) return undefined;
  const credits = CREDITS_BY_AMOUNT[amount];
  const price = amount === '1' ? stripe.price1m : stripe.price3m;
  if (stripe.secretKey !== undefined && price !== undefined) return { kind: 'checkout', price, credits };
  const link = amount === '1' ? stripe.paymentLink1m : stripe.paymentLink3m;
  if (link !== undefined) return { kind: 'payment-link', url: link, credits };
  return undefined;
}

/** Credits of a price id of ours, or undefined. */
export function creditsOfPrice(stripe: Config['stripe'], priceId: string): number | undefined {
  if (priceId === stripe.price1m) return CREDITS_BY_AMOUNT['1'];
  if (priceId === stripe.price3m) return CREDITS_BY_AMOUNT['3'];
  return undefined;
}

/** `metadata.credits` as we (or the operator, on a Payment Link) wrote it, when it is one of our amounts. */
export function creditsOfMetadata(metadata: Readonly<Record<string, string>> | null | undefined): number | undefined {
  const value = Number(metadata?.credits);
  return ALLOWED_CREDITS.has(value) ? value : undefined;
}
