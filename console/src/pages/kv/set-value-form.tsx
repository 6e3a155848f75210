/**
 * Sets a value (POST /kv/{bucket}/{key}?ttl=, 1 credit): bucket, key, value and a time to live in a chosen unit. The
 * service's own rules (kv.rules.ts) run here first: a name, value or time to live it would refuse (and charge for) is
 * refused in the page, said in the unit chosen, and the button stays disabled until it is right.
 */
import { useState } from 'preact/hooks';
import { checkName, checkValue, MAX_VALUE_LENGTH } from '../../../../src/features/kv/kv.rules.js';
import { href } from '../../router.js';
import { Charged, CostHint, ErrorNote } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { setValue } from './kv-api.js';
import { TTL_UNITS, ttlProblem, ttlQuery } from './kv-format.js';
import type { TtlUnit } from './kv-format.js';
import type { Answer } from '../../api.js';

/** What a set stored, for the lists to show without reading them again. */
export interface SavedEntry {
  readonly bucket: string;
  readonly key: string;
  readonly value: string;
  readonly expiresAt: string;
  /** What the save cost and left (x-cost, x-balance): the form that showed it may be gone once saved. */
  readonly cost?: number;
  readonly balance?: number;
}

export interface SetValueFormProps {
  /** Distinguishes the inputs' ids when two forms are on the page. */
  readonly id: string;
  readonly bucket?: string;
  readonly entryKey?: string;
  readonly value?: string;
  /** The time to live to start from (the edit form's remaining one); 30 days when absent. */
  readonly ttl?: { readonly amount: string; readonly unit: TtlUnit };
  /** Editing one entry: bucket and key are shown, not typed. */
  readonly fixedName?: boolean;
  readonly submitLabel?: string;
  readonly onSaved: (saved: SavedEntry) => void;
  readonly onCancel?: () => void;
}

const SECONDS = new Map(TTL_UNITS.map((unit) => [unit.name, unit.seconds]));

export function SetValueForm(props: SetValueFormProps) {
  const [bucket, setBucket] = useState(props.bucket ?? '');
  const [key, setKey] = useState(props.entryKey ?? '');
  const [value, setValueText] = useState(props.value ?? '');
  const [amount, setAmount] = useState(props.ttl?.amount ?? '30');
  const [unit, setUnit] = useState<TtlUnit>(props.ttl?.unit ?? 'days');
  const saving = usePaidCall<string>({ cost: 1 });
  const id = (name: string) => `${props.id}-${name}`;
  const problems = {
    bucket: bucket === '' ? null : checkName('bucket', bucket),
    key: key === '' ? null : checkName('key', key),
    value: checkValue(value),
    ttl: ttlProblem(amount, unit),
  };
  const missing = [bucket === '' ? 'a bucket' : null, key === '' ? 'a key' : null].filter((name) => name !== null);
  const invalid = missing.length > 0 || Object.values(problems).some((problem) => problem !== null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (invalid) return;
    const query = ttlQuery(amount, unit);
    const seconds = query === '' || query === '0' ? 30 * 86400 : Number(query);
    const startedAt = Date.now();
    let answer: Answer<string> | undefined;
    const saved = await saving.run(async () => (answer = await setValue(bucket, key, value, query)));
    if (saved !== undefined)
      props.onSaved({
        bucket,
        key,
        value,
        expiresAt: new Date(startedAt + seconds * 1000).toISOString(),
        cost: answer?.cost,
        balance: answer?.balance,
      });
  };

  return (
    <form class="kv-set" onSubmit={(event) => void submit(event)} noValidate>
      {props.fixedName ? null : (
        <div class="row">
          <div>
            <label for={id('bucket')}>Bucket</label>
            <input
              id={id('bucket')}
              required
              autoComplete="off"
              spellcheck={false}
              value={bucket}
              aria-invalid={problems.bucket !== null}
              aria-describedby={problems.bucket === null ? undefined : id('bucket-problem')}
              onInput={(event) => setBucket(event.currentTarget.value)}
            />
            <FieldProblem id={id('bucket-problem')} problem={problems.bucket} />
          </div>
          <div>
            <label for={id('key')}>Key</label>
            <input
              id={id('key')}
              required
              autoComplete="off"
              spellcheck={false}
              value={key}
              aria-invalid={problems.key !== null}
              aria-describedby={problems.key === null ? undefined : id('key-problem')}
              onInput={(event) => setKey(event.currentTarget.value)}
            />
            <FieldProblem id={id('key-problem')} problem={problems.key} />
          </div>
        </div>
      )}
      <label for={id('value')}>Value</label>
      <textarea
        id={id('value')}
        spellcheck={false}
        value={value}
        aria-invalid={problems.value !== null}
        aria-describedby={id('value-hint')}
        onInput={(event) => setValueText(event.currentTarget.value)}
      />
      <p class={problems.value === null ? 'muted small' : 'error small'} id={id('value-hint')}>
        Plain text, at most {MAX_VALUE_LENGTH} characters ({[...value].length} now).
      </p>
      <div class="row kv-ttl">
        <div>
          <label for={id('ttl')}>Time to live</label>
          <input
            id={id('ttl')}
            inputMode="numeric"
            autoComplete="off"
            value={amount}
            aria-invalid={problems.ttl !== null}
            aria-describedby={id('ttl-hint')}
            onInput={(event) => setAmount(event.currentTarget.value)}
          />
        </div>
        <div>
          <label for={id('unit')}>Unit</label>
          <select id={id('unit')} value={unit} onChange={(event) => setUnit(event.currentTarget.value as TtlUnit)}>
            {TTL_UNITS.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="muted small" id={id('ttl-hint')}>
        {props.fixedName
          ? `Filled in with the time it has left. Saving starts the time to live again from what is here.`
          : `Up to 30 days${unit === 'days' ? '' : ` (${((30 * 86400) / (SECONDS.get(unit) ?? 1)).toLocaleString('en')} ${unit})`}; 0 or empty means 30 days.`}
      </p>
      <FieldProblem id={id('ttl-problem')} problem={problems.ttl} />
      <ErrorNote error={saving.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={saving.busy || invalid}>
          {props.submitLabel ?? 'Set value'}
        </button>
        {props.onCancel === undefined ? null : (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <CostHint credits={1} />
        {missing.length > 0 ? <span class="muted small">Give {missing.join(' and ')} to set the value.</span> : null}
      </div>
      {saving.result === undefined || saving.error !== undefined ? null : (
        <p class="ok" role="status">
          Saved {key} in {bucket}. {props.fixedName ? null : <a href={href('kv', bucket)}>Open bucket {bucket}</a>}
        </p>
      )}
      <Charged cost={saving.cost} balance={saving.balance} />
    </form>
  );
}

/** A field's rule broken, said beside it before anything is sent. */
export function FieldProblem({ id, problem }: { id: string; problem: string | null }) {
  return problem === null ? null : (
    <p class="error small field-problem" id={id} role="alert">
      {problem}
    </p>
  );
}
