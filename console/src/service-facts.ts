/**
 * What this instance tells the console before any paid call would (`service.json` beside the console's page, free and
 * unmetered): read once a page load, so a form can refuse what the service would refuse for a credit.
 */
import { useEffect, useState } from 'preact/hooks';

export interface ServiceFacts {
  /** E-mail can reach this instance: mailbox webhooks can be created. */
  readonly receivesMail: boolean;
  /** The `amount`s GET /recharge sells here (none without Stripe): the only ones offered. */
  readonly rechargeAmounts?: readonly string[];
}

let asked: Promise<ServiceFacts | undefined> | undefined;

/** Undefined when the service did not say (an older service, a network error): nothing is assumed then. */
export function serviceFacts(): Promise<ServiceFacts | undefined> {
  asked ??= fetch('service.json', { cache: 'no-store' })
    .then(async (answer) => (answer.ok ? ((await answer.json()) as ServiceFacts) : undefined))
    .catch(() => undefined);
  return asked;
}

export function useServiceFacts(): ServiceFacts | undefined {
  const [facts, setFacts] = useState<ServiceFacts | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void serviceFacts().then((known) => current && setFacts(known));
    return () => {
      current = false;
    };
  }, []);
  return facts;
}
