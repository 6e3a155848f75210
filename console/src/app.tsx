/** The console's frame: sign-in gate, navigation, balance, and the page the route names. */
import type { FunctionComponent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, knownBalance, onBalance, onTokenRefused } from './api.js';
import { href, navigate, useRoute } from './router.js';
import { session } from './session.js';
import { NewTokenNotice, SignIn } from './pages/sign-in.js';
import type { NewWallet } from './pages/sign-in.js';
import { forgetWalletInfo } from './wallet-details.js';
import { Wallet } from './pages/wallet.js';
import { Logs } from './pages/logs.js';
import { KeyValue } from './pages/kv.js';
import { Webhooks } from './pages/webhooks.js';
import { Tools } from './pages/tools.js';
import { Operator } from './pages/operator.js';

export interface PageProps {
  /** The route's segments after the page's own name: `#/kv/settings` gives KeyValue ['settings']. */
  readonly route: string[];
}

interface Section {
  readonly name: string;
  readonly label: string;
  readonly page: FunctionComponent<PageProps>;
  readonly operator?: boolean;
  /** Credits the page's first list costs when it opens (the route's price): shown beside the link, before the click. */
  readonly openCost?: number;
}

const SECTIONS: readonly Section[] = [
  { name: 'wallet', label: 'Wallet', page: Wallet },
  { name: 'logs', label: 'Call logs', page: Logs },
  { name: 'kv', label: 'Key-value', page: KeyValue, openCost: 1 },
  { name: 'webhooks', label: 'Webhooks', page: Webhooks, openCost: 1 },
  { name: 'tools', label: 'Tools', page: Tools },
  { name: 'operator', label: 'Operator', page: Operator, operator: true },
];

/** What the sign-in page says when the console let go of a token the service refused. */
export const TOKEN_REFUSED =
  'The service no longer takes this token (401): its wallet may have been deleted. Sign in with another token.';

export function App() {
  const [signedIn, setSignedIn] = useState(() => session.token() !== null || session.adminToken() !== null);
  // A token made on the sign-in page: shown once, above the first page, until put away.
  const [welcome, setWelcome] = useState<NewWallet | undefined>(undefined);
  const [refused, setRefused] = useState(false);
  const route = useRoute();
  // Signed in with a token the service then refuses (its wallet deleted): the console lets go of it and asks again,
  // rather than showing a stale balance and a 401 on every page. Sign-in's own check of a token is not this.
  const signedInNow = useRef(signedIn);
  signedInNow.current = signedIn;
  useEffect(
    () =>
      onTokenRefused(() => {
        if (!signedInNow.current || session.token() === null) return;
        session.signIn(null, session.adminToken());
        forgetWalletInfo();
        setWelcome(undefined);
        setRefused(true);
        setSignedIn(session.adminToken() !== null);
      }),
    [],
  );
  const enter = (created?: NewWallet) => {
    setWelcome(created);
    setRefused(false);
    setSignedIn(true);
  };
  if (!signedIn) return <SignIn onSignedIn={enter} notice={refused ? TOKEN_REFUSED : undefined} />;
  const hasWallet = session.token() !== null;
  const hasAdmin = session.adminToken() !== null;
  const available = SECTIONS.filter((section) => (section.operator ? hasAdmin : hasWallet));
  const [first] = available;
  const section = available.find((candidate) => candidate.name === route[0]) ?? first;
  if (section === undefined) return <SignIn onSignedIn={enter} />;
  const Page = section.page;
  const signOut = () => {
    session.signOut();
    forgetWalletInfo();
    setWelcome(undefined);
    setSignedIn(false);
    navigate();
  };
  return (
    <>
      <a class="skip" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">coinop</span>
        <nav aria-label="Sections">
          <ul>
            {available.map((candidate) => (
              <li key={candidate.name}>
                <a href={href(candidate.name)} aria-current={candidate === section ? 'page' : undefined}>
                  {candidate.label}
                </a>
                {candidate.openCost === undefined ? null : (
                  <span class="nav-cost">
                    {candidate.openCost} credit{candidate.openCost === 1 ? '' : 's'} to open
                  </span>
                )}
              </li>
            ))}
          </ul>
        </nav>
        {hasWallet ? <BalanceBadge /> : null}
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        {welcome === undefined ? null : <NewTokenNotice wallet={welcome} onDone={() => setWelcome(undefined)} />}
        <AddressFollows section={section.name} route={route} />
        <Page key={section.name} route={route.slice(1)} />
      </main>
    </>
  );
}

/** Hash links jump by setting the hash, which here is the route: focus the content instead. */
function skipToMain(event: Event): void {
  event.preventDefault();
  document.querySelector<HTMLElement>('main h1')?.focus();
}

/** The address names the page shown: after sign-in (`/console/` alone) it becomes `#/wallet`, the page it opens. */
function AddressFollows({ section, route }: { section: string; route: string[] }) {
  useEffect(() => {
    if (route[0] !== section) history.replaceState(null, '', href(section));
  }, [section, route[0]]);
  return null;
}

/** The balance after the last call any page made (x-balance); read at sign-in or reload with a free call (GET /token/logs). */
function BalanceBadge() {
  const [balance, setBalance] = useState(knownBalance);
  useEffect(() => onBalance(setBalance), []);
  useEffect(() => {
    if (balance === undefined) void call('GET', '/token/logs', { query: { n: 1 } }).catch(() => undefined);
  }, []);
  return (
    <span class="balance" aria-live="polite" data-testid="balance">
      {balance === undefined ? '…' : `${balance.toLocaleString()} credits`}
    </span>
  );
}
