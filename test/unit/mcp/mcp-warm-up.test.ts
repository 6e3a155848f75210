import { expect, it } from 'vitest';
import { warmUpMcp } from '../../../src/features/mcp/mcp.warm-up.js';

/**
 * The warm-up runs the path of an agent's first POSTs (initialize, then a batch listing the tools and calling one)
 * through the SDK and our tool layer: if it stopped reaching the end (the SDK refusing its messages, a tool refusing
 * its arguments), the first real POST of a process would compile and run that path cold again.
 */
it('answers an initialize and a batch of tools/list and a kv_set call in full, charging nothing', async () => {
  const [initialize, batch] = await warmUpMcp('1.2.3');
  expect(initialize?.status).toBe(200);
  expect(JSON.parse(initialize?.body ?? '')).toMatchObject({
    id: 0,
    result: { serverInfo: { name: 'coinop', version: '1.2.3' } },
  });
  expect(batch?.status).toBe(200);
  const answers = JSON.parse(batch?.body ?? '') as Array<{ id: number; result?: Record<string, unknown> }>;
  expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
  expect((answers[0]?.result?.tools as unknown[]).length).toBeGreaterThan(5);
  expect(answers[1]?.result).toMatchObject({ _meta: { status: 200, cost: 0 } });
  expect(answers[1]?.result?.isError).toBeUndefined();
});
