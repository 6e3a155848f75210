import { describe, expect, it } from 'vitest';
import { creditsOfMetadata, creditsOfPrice, rechargeRoute } from '../../../src/features/billing/recharge-plans.js';

const checkout = { secretKey: 'sk', webhookSecret: 'whsec', price1m: 'price_1', price3m: 'price_3' };
const links = {
  webhookSecret: 'whsec',
  paymentLink1m: 'https://buy.stripe.com/a',
  paymentLink3m: 'https://buy.stripe.com/b',
};

describe('recharge routes', () => {
  it('uses Checkout when a secret key and the price are set', () => {
    expect(rechargeRoute(checkout, '1')).toEqual({ kind: 'checkout', price: 'price_1', credits: 1_000_000 });
    expect(rechargeRoute(checkout, '3')).toEqual({ kind: 'checkout', price: 'price_3', credits: 3_000_000 });
  });

  it('uses a Payment Link otherwise, and Checkout when both are configured', () => {
    expect(rechargeRoute(links, '3')).toEqual({
      kind: 'payment-link',
      url: 'https://buy.stripe.com/b',
      credits: 3_000_000,
    });
    expect(rechargeRoute({ ...links, ...checkout }, '1')).toMatchObject({ kind: 'checkout' });
    expect(rechargeRoute({ ...links, secretKey: 'sk', price1m: 'price_1' }, '3')).toMatchObject({
      kind: 'payment-link',
    });
  });

  it('is not configured without a webhook secret, or without a price or link for the amount', () => {
    expect(rechargeRoute({ ...checkout, webhookSecret: undefined }, '1')).toBeUndefined();
    expect(rechargeRoute({ webhookSecret: 'whsec', secretKey: 'sk', price1m: 'price_1' }, '3')).toBeUndefined();
    expect(rechargeRoute({}, '1')).toBeUndefined();
  });
});

describe('credits of a paid session', () => {
  it('accepts only our two amounts from metadata', () => {
    expect(creditsOfMetadata({ credits: '1000000' })).toBe(1_000_000);
    expect(creditsOfMetadata({ credits: '3000000' })).toBe(3_000_000);
    expect(creditsOfMetadata({ credits: '999999999' })).toBeUndefined();
    expect(creditsOfMetadata({})).toBeUndefined();
    expect(creditsOfMetadata(null)).toBeUndefined();
  });

  it('maps our prices', () => {
    expect(creditsOfPrice(checkout, 'price_3')).toBe(3_000_000);
    expect(creditsOfPrice(checkout, 'price_other')).toBeUndefined();
  });
});
