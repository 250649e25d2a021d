import { expect } from 'chai';
import {
  FEATURES,
  LATEST_REVISION,
  OLDEST_REVISION,
  REVISION_FEATURES,
  REVISION_WITHOUT_VERSION_HEADER,
  SUPPORTED_REVISIONS,
  allows,
  featuresOf,
  isAtLeast,
  isSupportedRevision,
  negotiateRevision,
  type Feature,
  type Revision,
} from '../../lib/protocol/revisions.js';

const R1 = '2024-11-05';
const R2 = '2025-03-26';
const R3 = '2025-06-18';
const R4 = '2025-11-25';

// An independent restatement of the changelogs and protocol texts: for each feature, the
// revisions that have it. Every feature of the table must be listed here, so a new row
// comes with its expectation.
const EXPECTED: Record<Feature, Revision[]> = {
  batches: [R2], // 2025-03-26 added JSON-RPC batching, 2025-06-18 removed it
  httpSse: [R1], // replaced by Streamable HTTP in 2025-03-26
  streamableHttp: [R2, R3, R4],
  httpSessions: [R2, R3, R4],
  resumability: [R2, R3, R4],
  protocolVersionHeader: [R3, R4],
  sseServerDisconnect: [R4],
  errorIdOptional: [R4],
  authorization: [R2, R3, R4],
  protectedResourceMetadata: [R3, R4],
  resourceIndicators: [R3, R4],
  openIdConnectDiscovery: [R4],
  clientIdMetadataDocuments: [R4],
  incrementalScopeConsent: [R4],
  metaKeyFormat: [R3, R4],
  metaOnObjects: [R3, R4],
  progressMessage: [R2, R3, R4],
  title: [R3, R4],
  icons: [R4],
  implementationDescription: [R4],
  jsonSchema2020Default: [R4],
  tasks: [R4],
  audioContent: [R2, R3, R4],
  resourceLinks: [R3, R4],
  annotationsLastModified: [R3, R4],
  toolAnnotations: [R2, R3, R4],
  structuredContent: [R3, R4],
  outputSchema: [R3, R4],
  toolNameGuidance: [R4],
  toolExecution: [R4],
  completionsCapability: [R2, R3, R4],
  completionContext: [R3, R4],
  elicitationForm: [R3, R4],
  elicitationUrl: [R4],
  elicitationModeCapabilities: [R4],
  elicitationEnumSchemas: [R4],
  elicitationDefaults: [R4],
  samplingTools: [R4],
  samplingContextCapability: [R4],
  samplingContentArrays: [R4],
};

describe('protocol/revisions', () => {
  describe('supported revisions', () => {
    it('lists the four revisions, latest first', () => {
      expect([...SUPPORTED_REVISIONS]).to.deep.equal([R4, R3, R2, R1]);
      expect(LATEST_REVISION).to.equal(R4);
      expect(OLDEST_REVISION).to.equal(R1);
    });

    it('recognises exactly the supported revision strings', () => {
      for (const r of SUPPORTED_REVISIONS) expect(isSupportedRevision(r), r).to.equal(true);
      for (const v of ['2025-11-26', '2024-10-07', 'draft', 'DRAFT', '', ' 2025-06-18', '2025-06-18 ', '2026-07-28']) {
        expect(isSupportedRevision(v), JSON.stringify(v)).to.equal(false);
      }
      expect(isSupportedRevision(undefined)).to.equal(false);
      expect(isSupportedRevision(20250618)).to.equal(false);
    });

    it('assumes 2025-03-26 when an HTTP request has no MCP-Protocol-Version header', () => {
      expect(REVISION_WITHOUT_VERSION_HEADER).to.equal(R2);
      // That revision must itself predate the header, or the fallback would be circular.
      expect(allows(REVISION_WITHOUT_VERSION_HEADER, 'protocolVersionHeader')).to.equal(false);
    });
  });

  describe('feature table', () => {
    it('has a boolean for every revision in every row', () => {
      for (const f of FEATURES) {
        expect(Object.keys(REVISION_FEATURES[f]).sort(), f).to.deep.equal([...SUPPORTED_REVISIONS].sort());
        for (const r of SUPPORTED_REVISIONS) expect(REVISION_FEATURES[f][r], `${f} @ ${r}`).to.be.a('boolean');
      }
    });

    it('has an expectation for every feature and no stale ones', () => {
      expect([...FEATURES].sort()).to.deep.equal(Object.keys(EXPECTED).sort());
    });

    for (const [feature, revisions] of Object.entries(EXPECTED) as [Feature, Revision[]][]) {
      it(`${feature}: ${revisions.join(', ')}`, () => {
        for (const r of SUPPORTED_REVISIONS) {
          expect(allows(r, feature), `${feature} @ ${r}`).to.equal(revisions.includes(r));
        }
      });
    }

    it('allows batches only in 2025-03-26', () => {
      expect(SUPPORTED_REVISIONS.filter((r) => allows(r, 'batches'))).to.deep.equal([R2]);
    });

    it('allows URL-mode elicitation only in 2025-11-25, form mode from 2025-06-18', () => {
      expect(SUPPORTED_REVISIONS.filter((r) => allows(r, 'elicitationUrl'))).to.deep.equal([R4]);
      expect(SUPPORTED_REVISIONS.filter((r) => allows(r, 'elicitationForm'))).to.deep.equal([R4, R3]);
    });

    it('has exactly one HTTP transport per revision', () => {
      for (const r of SUPPORTED_REVISIONS) {
        expect(Number(allows(r, 'httpSse')) + Number(allows(r, 'streamableHttp')), r).to.equal(1);
      }
    });

    it('never takes back a feature except batches and the HTTP+SSE transport', () => {
      // Read oldest to newest; once true, a row stays true unless it is a known removal.
      const removed = new Set<Feature>(['batches', 'httpSse']);
      const oldestFirst = [...SUPPORTED_REVISIONS].reverse();
      for (const f of FEATURES) {
        if (removed.has(f)) continue;
        let seen = false;
        for (const r of oldestFirst) {
          if (seen) expect(allows(r, f), `${f} lost in ${r}`).to.equal(true);
          seen ||= allows(r, f);
        }
      }
    });

    it('has no feature on in 2024-11-05 except the legacy transport', () => {
      expect(FEATURES.filter((f) => allows(R1, f))).to.deep.equal(['httpSse']);
    });

    it('featuresOf flattens one column', () => {
      const col = featuresOf(R3);
      expect(Object.keys(col)).to.have.length(FEATURES.length);
      for (const f of FEATURES) expect(col[f], f).to.equal(allows(R3, f));
      expect(col.title).to.equal(true);
      expect(col.batches).to.equal(false);
    });
  });

  describe('ordering and negotiation', () => {
    it('isAtLeast orders revisions by time, not by table position alone', () => {
      expect(isAtLeast(R4, R1)).to.equal(true);
      expect(isAtLeast(R3, R3)).to.equal(true);
      expect(isAtLeast(R2, R3)).to.equal(false);
      expect(isAtLeast(R1, R2)).to.equal(false);
    });

    it('echoes a supported revision and answers anything else with the latest', () => {
      for (const r of SUPPORTED_REVISIONS) expect(negotiateRevision(r)).to.equal(r);
      expect(negotiateRevision('2099-01-01')).to.equal(LATEST_REVISION);
      expect(negotiateRevision('2024-10-07')).to.equal(LATEST_REVISION);
      expect(negotiateRevision('')).to.equal(LATEST_REVISION);
    });
  });
});
