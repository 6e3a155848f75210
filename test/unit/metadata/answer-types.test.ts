import { expect, expectTypeOf, it } from 'vitest';
import { AiBlock, MetadataRequest, Technical } from '../../../src/features/metadata/metadata.schemas.js';
import type { AiSummary } from '../../../src/features/metadata/metadata.schemas.js';
import { SUMMARY_LEVELS } from '../../../src/features/metadata/ai/summarizer.js';
import type { KeyFacts } from '../../../src/features/metadata/ai/summarizer.js';
import { ANALYSIS_LIMITS } from '../../../src/features/metadata/html/limits.js';
import type { AnalysisLimit } from '../../../src/features/metadata/html/limits.js';

// The service's answer types are the schemas' static types: the enum fields keep their unions (checked by tsc),
// and the document lists the same values the code produces.
it('the metadata schemas give the answer types their enum unions and list the same values in the document', () => {
  expectTypeOf<Technical['analysisLimit']>().toEqualTypeOf<AnalysisLimit | undefined>();
  expectTypeOf<MetadataRequest['aiSummary']>().toEqualTypeOf<AiSummary | undefined>();
  expectTypeOf<AiBlock['keyFacts']>().toEqualTypeOf<KeyFacts>();
  expect(Technical.properties.analysisLimit.enum).toEqual([...ANALYSIS_LIMITS]);
  expect(MetadataRequest.properties.aiSummary.enum).toEqual(['none', ...SUMMARY_LEVELS]);
  expect(AiBlock.required).toEqual(expect.arrayContaining(['summary', 'keyFacts', 'processingTime', 'model']));
});
