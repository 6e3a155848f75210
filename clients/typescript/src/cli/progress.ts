const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Shows a spinner with `label` on stderr while `work` runs, when stderr is a terminal and the call takes longer than
 * a moment; pipes and files never see it.
 */
export async function withProgress<Value>(
  label: string,
  work: Promise<Value>,
  stderr: NodeJS.WriteStream = process.stderr,
): Promise<Value> {
  if (!stderr.isTTY) return work;
  let frame = 0;
  let shown = false;
  const timer = setInterval(() => {
    shown = true;
    stderr.write(`\r${FRAMES[frame++ % FRAMES.length] ?? ''} ${label}`);
  }, 120);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    if (shown) stderr.write('\r\x1b[2K');
  }
}
