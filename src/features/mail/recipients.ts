/**
 * Which envelope recipients are ours: `r_` + 16 base32 characters at MAIL_DOMAIN
 * (docs/contract.md#webhooks). The local part is compared case-insensitively (mailboxes are stored lowercase), the
 * domain too, with a trailing dot tolerated. Anything else is not a mailbox and is refused at RCPT.
 */
const MAILBOX = /^r_[a-z2-7]{16}$/;

/** The stored mailbox id of an address, or null when the address cannot be one of ours. */
export function mailboxOf(address: string, mailDomain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  if (domain !== mailDomain.toLowerCase().replace(/\.$/, '')) return null;
  return MAILBOX.test(local) ? local : null;
}
