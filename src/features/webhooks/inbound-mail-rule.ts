/** Pure, so the console says it before a paid call would: the refusal of a mailbox webhook where no e-mail can arrive. */
export const NO_INBOUND_MAIL =
  'Mailbox webhooks are unavailable: this instance receives no e-mail (give a schedule instead)';
