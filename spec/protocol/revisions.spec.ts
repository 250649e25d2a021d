import { expect } from 'chai';
import {
  FEATURES,
  LATEST_REVISION,
  OLDEST_REVISION,
  REVISION_FEATURES,
  REVISION_WITHOUT_VERSION_HEADER,
  SUPPORTED_REVISIONS,
  ALL_REVISIONS,
  MODERN_REVISIONS,
  isLegacyRevision,
  isModernRevision,
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
const R5 = '2026-07-28';

// An independent restatement of the changelogs and protocol texts: for each feature, the
// revisions that have it. Every feature of the table must be listed here, so a new row
// comes with its expectation.
const EXPECTED: Record<Feature, Revision[]> = {
  batches: [R2], // 2025-03-26 added JSON-RPC batching, 2025-06-18 removed it
  httpSse: [R1], // replaced by Streamable HTTP in 2025-03-26
  streamableHttp: [R5, R2, R3, R4],
  httpSessions: [R2, R3, R4],
  resumability: [R2, R3, R4],
  protocolVersionHeader: [R5, R3, R4],
  sseServerDisconnect: [R4],
  errorIdOptional: [R5, R4],
  authorization: [R5, R2, R3, R4],
  protectedResourceMetadata: [R5, R3, R4],
  resourceIndicators: [R5, R3, R4],
  openIdConnectDiscovery: [R5, R4],
  clientIdMetadataDocuments: [R5, R4],
  incrementalScopeConsent: [R5, R4],
  metaKeyFormat: [R5, R3, R4],
  metaOnObjects: [R5, R3, R4],
  progressMessage: [R5, R2, R3, R4],
  title: [R5, R3, R4],
  icons: [R5, R4],
  implementationDescription: [R5, R4],
  jsonSchema2020Default: [R5, R4],
  tasks: [R4],
  audioContent: [R5, R2, R3, R4],
  resourceLinks: [R5, R3, R4],
  annotationsLastModified: [R5, R3, R4],
  toolAnnotations: [R5, R2, R3, R4],
  structuredContent: [R5, R3, R4],
  outputSchema: [R5, R3, R4],
  toolNameGuidance: [R5, R4],
  toolExecution: [R4],
  completionsCapability: [R5, R2, R3, R4],
  completionContext: [R5, R3, R4],
  elicitationForm: [R5, R3, R4],
  elicitationUrl: [R5, R4],
  elicitationModeCapabilities: [R5, R4],
  elicitationEnumSchemas: [R5, R4],
  elicitationDefaults: [R5, R4],
  samplingTools: [R5, R4],
  samplingContextCapability: [R5, R4],
  samplingContentArrays: [R5, R4],
  // 2026-07-28 (changelog): what the modern era removed, and what it added.
  initializeHandshake: [R4, R3, R2, R1],
  ping: [R4, R3, R2, R1],
  loggingSetLevel: [R4, R3, R2, R1],
  rootsListChanged: [R4, R3, R2, R1],
  elicitationComplete: [R4, R3, R2, R1],
  urlElicitationRequiredError: [R4, R3, R2, R1],
  serverToClientRequests: [R4, R3, R2, R1],
  resourceNotFound32002: [R4, R3, R2, R1],
  resourcesSubscribeMethods: [R4, R3, R2, R1],
  standaloneGetStream: [R4, R3, R2, R1],
  perRequestMeta: [R5],
  serverDiscover: [R5],
  perRequestLogLevel: [R5],
  inputRequiredResults: [R5],
  resultType: [R5],
  modernErrorCodes: [R5],
  cachingHints: [R5],
  subscriptionsListen: [R5],
  standardRequestHeaders: [R5],
  traceContextMeta: [R5],
  extensionsCapability: [R5],
};

describe('protocol/revisions', () => {
  describe('supported revisions', () => {
    it('lists the four revisions, latest first', () => {
      expect([...SUPPORTED_REVISIONS]).to.deep.equal([R4, R3, R2, R1]);
      expect(LATEST_REVISION).to.equal(R4);
      expect(OLDEST_REVISION).to.equal(R1);
    });

    it('recognises exactly the supported revision strings', () => {
      for (const r of ALL_REVISIONS) expect(isSupportedRevision(r), r).to.equal(true);
      for (const v of ['2025-11-26', '2024-10-07', 'draft', 'DRAFT', '', ' 2025-06-18', '2025-06-18 ', '2026-07-29']) {
        expect(isSupportedRevision(v), JSON.stringify(v)).to.equal(false);
      }
      expect(isSupportedRevision(undefined)).to.equal(false);
      expect(isSupportedRevision(20250618)).to.equal(false);
    });

    it('keeps the eras apart: initialize negotiates only session revisions, 2026-07-28 is per request', () => {
      expect([...MODERN_REVISIONS]).to.deep.equal([R5]);
      expect([...ALL_REVISIONS]).to.deep.equal([R5, R4, R3, R2, R1]);
      expect(isModernRevision(R5)).to.equal(true);
      expect(isLegacyRevision(R5)).to.equal(false);
      for (const r of SUPPORTED_REVISIONS) expect(isModernRevision(r), r).to.equal(false);
      // A client that offers 2026-07-28 in initialize is answered with the latest session revision.
      expect(negotiateRevision(R5)).to.equal(R4);
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
        expect(Object.keys(REVISION_FEATURES[f]).sort(), f).to.deep.equal([...ALL_REVISIONS].sort());
        for (const r of ALL_REVISIONS) expect(REVISION_FEATURES[f][r], `${f} @ ${r}`).to.be.a('boolean');
      }
    });

    it('has an expectation for every feature and no stale ones', () => {
      expect([...FEATURES].sort()).to.deep.equal(Object.keys(EXPECTED).sort());
    });

    for (const [feature, revisions] of Object.entries(EXPECTED) as [Feature, Revision[]][]) {
      it(`${feature}: ${revisions.join(', ')}`, () => {
        for (const r of ALL_REVISIONS) {
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
      // (Within the session era; 2026-07-28 removed a list of its own, checked row by row above.)
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
      const sessionEra = new Set(FEATURES.filter((f) => !allows(R5, f) && allows(R4, f) && allows(R1, f)));
      expect(FEATURES.filter((f) => allows(R1, f) && !sessionEra.has(f))).to.deep.equal(['httpSse']);
    });

    it('featuresOf flattens one column', () => {
      const col = featuresOf(R3);
      expect(Object.keys(col)).to.have.length(FEATURES.length);
      for (const f of FEATURES) expect(col[f], f).to.equal(allows(R3, f));
      expect(col.title).to.equal(true);
      expect(col.batches).to.equal(false);
    });

    it('a string that is no revision allows nothing (not even one named like an object key)', () => {
      for (const v of ['1999-01-01', '', 'toString', '__proto__', 'constructor']) {
        for (const f of FEATURES) expect(allows(v as typeof R1, f), `${f} @ ${JSON.stringify(v)}`).to.equal(false);
      }
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
