import { describe, expect, it } from 'vitest';
import { mailboxOf } from '../../../src/features/mail/recipients.js';
import {
  attachmentSignature,
  attachmentUrl,
  verifyAttachmentLink,
} from '../../../src/features/mail/attachment-links.js';
import { headerObject, messageIdOf } from '../../../src/features/mail/payload.js';
import type { ParsedMessage } from '../../../src/features/mail/mime-parse.js';

describe('mailboxOf', () => {
  const domain = 'hooks.example.test';
  it.each([
    ['r_abcdefghijklmnop@hooks.example.test', 'r_abcdefghijklmnop'],
    ['R_ABCDEFGHIJKLMNOP@HOOKS.EXAMPLE.TEST', 'r_abcdefghijklmnop'],
    ['r_abcdefghijkl2345@hooks.example.test.', 'r_abcdefghijkl2345'],
  ])('%s is mailbox %s', (address, mailbox) => expect(mailboxOf(address, domain)).toBe(mailbox));

  it.each([
    'r_abcdefghijklmnop@other.test',
    'r_abcdefghijklmno@hooks.example.test', // 15 characters
    'r_abcdefghijklmnopq@hooks.example.test', // 17
    'r_abcdefghijklmn01@hooks.example.test', // 0 and 1 are not base32
    'x_abcdefghijklmnop@hooks.example.test',
    'postmaster@hooks.example.test',
    '@hooks.example.test',
    'r_abcdefghijklmnop',
    'r_abcdefghijklmnop@hooks.example.test@evil.test',
  ])('%s is not a mailbox', (address) => expect(mailboxOf(address, domain)).toBeNull());
});

describe('signed attachment links', () => {
  const key = Buffer.alloc(32, 7);
  const now = Date.parse('2026-06-01T12:00:00Z');
  const expires = now / 1000 + 3600;

  it('builds the URL under PUBLIC_URL and verifies it until expiry', () => {
    const url = new URL(attachmentUrl('https://api.example.test', key, 'abc', expires));
    expect(url.origin + url.pathname).toBe('https://api.example.test/mail/attachments/abc');
    const signature = String(url.searchParams.get('signature'));
    expect(signature).toBe(attachmentSignature(key, 'abc', expires));
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires), signature }, now)).toBe(true);
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires), signature }, expires * 1000 - 1)).toBe(
      true,
    );
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires), signature }, expires * 1000)).toBe(false);
  });

  it('refuses another id, another expiry, another key, a malformed expiry or signature', () => {
    const signature = attachmentSignature(key, 'abc', expires);
    expect(verifyAttachmentLink(key, { id: 'abd', expires: String(expires), signature }, now)).toBe(false);
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires + 1), signature }, now)).toBe(false);
    expect(verifyAttachmentLink(Buffer.alloc(32, 8), { id: 'abc', expires: String(expires), signature }, now)).toBe(
      false,
    );
    expect(verifyAttachmentLink(key, { id: 'abc', expires: `${expires}.0`, signature }, now)).toBe(false);
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires), signature: `${signature}x` }, now)).toBe(
      false,
    );
    expect(verifyAttachmentLink(key, { id: 'abc', expires: String(expires), signature: '' }, now)).toBe(false);
  });
});

describe('payload pieces', () => {
  const parsed = (overrides: Partial<ParsedMessage>): ParsedMessage => ({
    headers: [],
    subject: '',
    from: [],
    to: [],
    cc: [],
    attachments: [],
    ...overrides,
  });

  it('keeps every value of a repeated header, in order, and a __proto__ header as a plain key', () => {
    const headers = headerObject([
      ['received', 'one'],
      ['subject', 's'],
      ['received', 'two'],
      ['__proto__', 'x'],
    ]);
    expect(headers.received).toStrictEqual(['one', 'two']);
    expect(headers.subject).toBe('s');
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(Object.keys(headers)).toContain('__proto__');
  });

  it('uses the Message-ID without brackets, or a fresh id', () => {
    expect(messageIdOf(parsed({ messageId: '<abc@x.test>' }), () => 'fresh')).toBe('abc@x.test');
    expect(messageIdOf(parsed({ messageId: '  ' }), () => 'fresh')).toBe('fresh');
    expect(messageIdOf(parsed({}), () => 'fresh')).toBe('fresh');
  });
});
