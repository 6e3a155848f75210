import type { DnsRecord } from '../../outbound/dns/dns-types.js';

/** Mail providers recognised by their MX host names (suffix match on whole labels). */
const PROVIDERS: ReadonlyArray<{ readonly name: string; readonly suffixes: readonly string[] }> = [
  { name: 'Google Workspace', suffixes: ['google.com', 'googlemail.com'] },
  { name: 'Microsoft 365', suffixes: ['mail.protection.outlook.com', 'outlook.com', 'hotmail.com'] },
  { name: 'Zoho Mail', suffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zoho.jp', 'zohomail.com'] },
  { name: 'Proton Mail', suffixes: ['protonmail.ch', 'proton.me'] },
  { name: 'Fastmail', suffixes: ['messagingengine.com', 'fastmail.com'] },
  { name: 'iCloud Mail', suffixes: ['mail.icloud.com', 'icloud.com'] },
  { name: 'Amazon SES', suffixes: ['amazonaws.com', 'amazonses.com'] },
  { name: 'Mimecast', suffixes: ['mimecast.com', 'mimecast.co.za'] },
  { name: 'Proofpoint', suffixes: ['pphosted.com', 'ppe-hosted.com'] },
  { name: 'Barracuda', suffixes: ['barracudanetworks.com'] },
  { name: 'Cisco Secure Email', suffixes: ['iphmx.com'] },
  { name: 'Yahoo Mail', suffixes: ['yahoodns.net'] },
  { name: 'Yandex Mail', suffixes: ['yandex.net', 'yandex.ru'] },
  { name: 'GoDaddy', suffixes: ['secureserver.net'] },
  { name: 'OVHcloud', suffixes: ['ovh.net'] },
  { name: 'IONOS', suffixes: ['ionos.com', 'ionos.de', '1and1.com', 'kundenserver.de'] },
  { name: 'Namecheap Private Email', suffixes: ['privateemail.com'] },
  { name: 'Namecheap Email Forwarding', suffixes: ['registrar-servers.com'] },
  { name: 'Rackspace', suffixes: ['emailsrvr.com'] },
  { name: 'Mailgun', suffixes: ['mailgun.org'] },
  { name: 'SendGrid', suffixes: ['sendgrid.net'] },
  { name: 'Cloudflare Email Routing', suffixes: ['mx.cloudflare.net'] },
  { name: 'Tuta', suffixes: ['tutanota.de', 'tuta.com'] },
  { name: 'Hornetsecurity', suffixes: ['hornetsecurity.com'] },
];

function providerOfHost(exchange: string): string | null {
  const host = exchange.toLowerCase().replace(/\.$/, '');
  for (const provider of PROVIDERS) {
    if (provider.suffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return provider.name;
  }
  return null;
}

/** The provider of the most preferred MX host that is recognised; null when none is (or no MX). */
export function mxProvider(records: readonly DnsRecord[]): string | null {
  const mx = records
    .flatMap((record) => (record.type === 'MX' ? [record] : []))
    .sort((a, b) => a.priority - b.priority);
  for (const record of mx) {
    const provider = providerOfHost(record.exchange);
    if (provider !== null) return provider;
  }
  return null;
}
