/** Sets a value (POST /kv/{bucket}/{key}?ttl=, 1 credit): bucket, key, value and a time to live in a chosen unit. */
import { useState } from 'preact/hooks';
import { href } from '../../router.js';
import { Charged, CostHint, ErrorNote } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { setValue } from './kv-api.js';
import { TTL_UNITS, ttlQuery } from './kv-format.js';
import type { TtlUnit } from './kv-format.js';

export interface SetValueFormProps {
  /** Distinguishes the inputs' ids when two forms are on the page. */
  readonly id: string;
  readonly bucket?: string;
  readonly entryKey?: string;
  readonly value?: string;
  /** Editing one entry: bucket and key are shown, not typed. */
  readonly fixedName?: boolean;
  readonly submitLabel?: string;
  readonly onSaved: (bucket: string, key: string) => void;
  readonly onCancel?: () => void;
}

export function SetValueForm(props: SetValueFormProps) {
  const [bucket, setBucket] = useState(props.bucket ?? '');
  const [key, setKey] = useState(props.entryKey ?? '');
  const [value, setValueText] = useState(props.value ?? '');
  const [amount, setAmount] = useState('30');
  const [unit, setUnit] = useState<TtlUnit>('days');
  const saving = usePaidCall<string>();
  const id = (name: string) => `${props.id}-${name}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const saved = await saving.run(() => setValue(bucket, key, value, ttlQuery(amount, unit)));
    if (saved !== undefined) props.onSaved(bucket, key);
  };

  return (
    <form class="kv-set" onSubmit={(event) => void submit(event)}>
      {props.fixedName ? null : (
        <div class="row">
          <div>
            <label for={id('bucket')}>Bucket</label>
            <input id={id('bucket')} required autoComplete="off" spellcheck={false} value={bucket} onInput={(event) => setBucket(event.currentTarget.value)} />
          </div>
          <div>
            <label for={id('key')}>Key</label>
            <input id={id('key')} required autoComplete="off" spellcheck={false} value={key} onInput={(event) => setKey(event.currentTarget.value)} />
          </div>
        </div>
      )}
      <label for={id('value')}>Value</label>
      <textarea
        id={id('value')}
        spellcheck={false}
        value={value}
        aria-describedby={id('value-hint')}
        onInput={(event) => setValueText(event.currentTarget.value)}
      />
      <p class="muted small" id={id('value-hint')}>
        Plain text, at most 1000 characters ({[...value].length} now).
      </p>
      <div class="row kv-ttl">
        <div>
          <label for={id('ttl')}>Time to live</label>
          <input
            id={id('ttl')}
            inputMode="numeric"
            autoComplete="off"
            value={amount}
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
        Up to 30 days; 0 or empty means 30 days.{props.fixedName ? ' Saving starts the time to live again.' : ''}
      </p>
      <ErrorNote error={saving.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={saving.busy}>
          {props.submitLabel ?? 'Set value'}
        </button>
        {props.onCancel === undefined ? null : (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <CostHint credits={1} />
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
