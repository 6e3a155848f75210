/** One entry's value (GET, 1 credit when opened) with Edit (POST, 1) and Delete after a confirmation (DELETE, 1). */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../../components/confirm-button.js';
import { Charged, CostHint, ErrorNote, Loading } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { href } from '../../router.js';
import { deleteValue, getValue } from './kv-api.js';
import { SetValueForm } from './set-value-form.js';

export interface ValuePanelProps {
  readonly bucket: string;
  readonly entryKey: string;
  /** The entry changed or went away: the list reloads. */
  readonly onChanged: () => void;
}

export function ValuePanel({ bucket, entryKey, onChanged }: ValuePanelProps) {
  const reading = usePaidCall<string>();
  const removing = usePaidCall<string>();
  const [editing, setEditing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const read = () => void reading.run(() => getValue(bucket, entryKey));
  useEffect(() => {
    read();
    heading.current?.focus();
  }, [bucket, entryKey]);

  const remove = async () => {
    if ((await removing.run(() => deleteValue(bucket, entryKey))) !== undefined) onChanged();
  };

  const deleted = removing.result !== undefined && removing.error === undefined;
  return (
    <section class="panel kv-value" aria-labelledby="kv-value-heading">
      <div class="kv-value-head">
        <h2 id="kv-value-heading" tabIndex={-1} ref={heading}>
          <span class="muted">{bucket} /</span> {entryKey}
        </h2>
        <a href={href('kv', bucket)}>Close</a>
      </div>
      {deleted ? (
        <p class="ok" role="status">
          Deleted.
        </p>
      ) : editing && reading.result !== undefined ? (
        <SetValueForm
          id="kv-edit"
          bucket={bucket}
          entryKey={entryKey}
          value={reading.result}
          fixedName
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            read();
            onChanged();
          }}
        />
      ) : (
        <>
          <Loading when={reading.busy} />
          <ErrorNote error={reading.error} />
          {reading.result === undefined ? null : (
            <pre class="kv-value-text" data-testid="kv-value">
              {reading.result === '' ? '(empty)' : reading.result}
            </pre>
          )}
          <Charged cost={reading.cost} balance={reading.balance} />
          {reading.result === undefined ? null : (
            <div class="actions">
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                groupLabel="Confirm delete"
                question={`Delete ${entryKey}?`}
                confirmLabel="Yes, delete"
                danger
                disabled={removing.busy}
                onConfirm={() => void remove()}
              />
              <CostHint credits={1} />
            </div>
          )}
        </>
      )}
      <ErrorNote error={removing.error} />
      <Charged cost={removing.cost} balance={removing.balance} />
    </section>
  );
}
