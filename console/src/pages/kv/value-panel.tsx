/**
 * One entry's value (GET, 1 credit when opened) with Edit (POST, 1) and Delete after a confirmation (DELETE, 1). Each
 * action costs what its button says: after a save the value shown is the one saved and the list row follows, after a
 * delete the row goes, without reading either again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../../components/confirm-button.js';
import { Charged, CostHint, ErrorNote, Loading } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { href } from '../../router.js';
import { deleteValue, getValue } from './kv-api.js';
import type { KeySummary } from './kv-api.js';
import { expiresLabel, remainingTtl } from './kv-format.js';
import { SetValueForm } from './set-value-form.js';
import type { SavedEntry } from './set-value-form.js';

export interface ValuePanelProps {
  readonly bucket: string;
  readonly entryKey: string;
  /** The entry's row in the list shown, when it is there: its expiry fills in the edit form's time to live. */
  readonly listed: KeySummary | undefined;
  readonly onSaved: (saved: SavedEntry) => void;
  readonly onDeleted: () => void;
}

export function ValuePanel({ bucket, entryKey, listed, onSaved, onDeleted }: ValuePanelProps) {
  const reading = usePaidCall<string>({ cost: 1 });
  const removing = usePaidCall<string>({ cost: 1 });
  const [editing, setEditing] = useState(false);
  // The value as last saved from here: shown instead of reading it back, with what the save cost.
  const [saved, setSaved] = useState<SavedEntry | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void reading.run(() => getValue(bucket, entryKey));
    heading.current?.focus();
  }, [bucket, entryKey]);

  const remove = async () => {
    if ((await removing.run(() => deleteValue(bucket, entryKey))) !== undefined) onDeleted();
  };

  const value = saved?.value ?? reading.result;
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
      ) : editing && value !== undefined ? (
        <>
          {listed === undefined ? (
            <p class="muted small">
              Its time left is not in the list shown: choose a time to live (saving starts it again).
            </p>
          ) : (
            <p class="muted small" data-testid="kv-ttl-left">
              This entry {expiresLabel(listed.expiresAt)}.
            </p>
          )}
          <SetValueForm
            id="kv-edit"
            bucket={bucket}
            entryKey={entryKey}
            value={value}
            ttl={listed === undefined ? undefined : remainingTtl(listed.expiresAt)}
            fixedName
            submitLabel="Save"
            onCancel={() => setEditing(false)}
            onSaved={(entry) => {
              setEditing(false);
              setSaved(entry);
              onSaved(entry);
            }}
          />
        </>
      ) : (
        <>
          <Loading when={reading.busy} />
          <ErrorNote error={reading.error} />
          {value === undefined ? null : (
            <pre class="kv-value-text" data-testid="kv-value">
              {value === '' ? '(empty)' : value}
            </pre>
          )}
          {saved === undefined ? (
            <Charged cost={reading.cost} balance={reading.balance} />
          ) : (
            <>
              <p class="ok" role="status">
                Saved.
              </p>
              <Charged cost={saved.cost} balance={saved.balance} />
            </>
          )}
          {value === undefined ? null : (
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
