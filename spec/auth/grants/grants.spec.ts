// The client's extension grants against an in-test token endpoint on 127.0.0.1, checked the way
// the conformance mocks check them (client-credentials-jwt/-basic, cross-app-access).
import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { clientCredentialsGrant } from '../../../lib/auth/grants/client-credentials.js';
import { clientAssertion, signJwt } from '../../../lib/auth/grants/jwt-assertion.js';
import { JWT_BEARER_GRANT, jwtBearerGrant } from '../../../lib/auth/grants/jwt-bearer.js';
import { TokenEndpointError } from '../../../lib/auth/authorization-errors.js';
import { ID_JAG_TOKEN_TYPE, exchangeIdTokenForIdJag } from '../../../lib/auth/grants/token-exchange.js';
import { basicCredentials, startTokenServer, type TokenServer } from './token-server.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
const RESOURCE = 'https://mcp.example.com/mcp';
const NOW = 1_700_000_000_000;

/** Verifies a compact JWS with node:crypto and returns its header and claims. */
function verifyJwt(jwt: string, publicKey: KeyObject): { header: any; claims: any } {
  const [h, c, s] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  const data = Buffer.from(`${h}.${c}`);
  const sig = Buffer.from(s, 'base64url');
  const ok = header.alg === 'ES256' ? verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig) : verify('sha256', data, publicKey, sig);
  if (!ok) throw new Error('bad signature');
  return { header, claims: JSON.parse(Buffer.from(c, 'base64url').toString()) };
}

describe('extension grants', () => {
  let as: TokenServer | undefined;
  afterEach(async () => {
    await as?.close();
    as = undefined;
  });

  describe('client credentials', () => {
    it('authenticates with client_secret_basic, id and secret form-encoded before base64, and sends resource and scope', async () => {
      as = await startTokenServer(() => ({ body: { access_token: 'cc-token-1', token_type: 'bearer', expires_in: 3600, scope: 'mcp:read' } }));
      const token = await clientCredentialsGrant({
        tokenEndpoint: `${as.origin}/token`,
        clientId: 'conformance test:client',
        auth: { method: 'client_secret_basic', clientSecret: 's3cr&t:x' },
        resource: RESOURCE,
        scope: 'mcp:read',
      });
      expect(token).to.deep.include({ access_token: 'cc-token-1', expires_in: 3600, scope: 'mcp:read' });
      const [req] = as.requests;
      expect(req.headers.authorization).to.equal(`Basic ${Buffer.from('conformance+test%3Aclient:s3cr%26t%3Ax').toString('base64')}`);
      expect(basicCredentials(req.headers.authorization)).to.deep.equal(['conformance test:client', 's3cr&t:x']);
      expect(Object.fromEntries(req.form)).to.deep.equal({ grant_type: 'client_credentials', resource: RESOURCE, scope: 'mcp:read' });
      expect(req.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    });

    it('authenticates with client_secret_post (no Basic header) and leaves scope out when not given', async () => {
      as = await startTokenServer(() => ({ body: { access_token: 'cc-token-2', token_type: 'Bearer' } }));
      await clientCredentialsGrant({ tokenEndpoint: `${as.origin}/token`, clientId: 'c1', auth: { method: 'client_secret_post', clientSecret: 'pw' }, resource: RESOURCE });
      const [req] = as.requests;
      expect(req.headers.authorization).to.equal(undefined);
      expect(Object.fromEntries(req.form)).to.deep.equal({ grant_type: 'client_credentials', resource: RESOURCE, client_id: 'c1', client_secret: 'pw' });
    });

    it('authenticates with private_key_jwt: an ES256 assertion the AS can verify, iss = sub = client id, aud = its issuer', async () => {
      const issuer = 'http://127.0.0.1:9/';
      as = await startTokenServer((r) => {
        const { header, claims } = verifyJwt(r.form.get('client_assertion')!, ec.publicKey);
        return header.alg === 'ES256' && claims.aud === issuer ? { body: { access_token: 'cc-token-3', token_type: 'Bearer' } } : { status: 401, body: { error: 'invalid_client' } };
      });
      const token = await clientCredentialsGrant({
        tokenEndpoint: `${as.origin}/token`,
        clientId: 'conformance-test-client',
        auth: { method: 'private_key_jwt', privateKeyPem: pem(ec.privateKey), algorithm: 'ES256', audience: issuer },
        resource: RESOURCE,
        now: NOW,
      });
      expect(token.access_token).to.equal('cc-token-3');
      const form = as.requests[0].form;
      expect(form.get('grant_type')).to.equal('client_credentials');
      expect(form.get('client_assertion_type')).to.equal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      expect(form.get('client_secret')).to.equal(null);
      const { claims } = verifyJwt(form.get('client_assertion')!, ec.publicKey);
      expect(claims).to.include({ iss: 'conformance-test-client', sub: 'conformance-test-client', aud: issuer, iat: NOW / 1000, exp: NOW / 1000 + 60 });
      expect(claims.jti).to.match(/^[0-9a-f-]{36}$/);
    });

    it('turns an OAuth error answer into a TokenEndpointError that carries no secret', async () => {
      as = await startTokenServer(() => ({ status: 401, body: { error: 'invalid_client', error_description: 'Invalid client credentials' } }));
      let err: unknown;
      await clientCredentialsGrant({ tokenEndpoint: `${as.origin}/token`, clientId: 'c1', auth: { method: 'client_secret_basic', clientSecret: 'TOP-SECRET' }, resource: RESOURCE }).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(TokenEndpointError);
      const e = err as TokenEndpointError;
      expect([e.error, e.errorDescription, e.status, e.grantType]).to.deep.equal(['invalid_client', 'Invalid client credentials', 401, 'client_credentials']);
      expect(e.message).to.match(/HTTP 401, invalid_client: Invalid client credentials\); check the client id and credentials/);
      expect(JSON.stringify({ ...e, message: e.message })).not.to.include('TOP-SECRET');
    });

    it('refuses answers that are not Bearer token responses', async () => {
      const answers = [
        { body: { token_type: 'Bearer' } },
        { body: { access_token: 't', token_type: 'mac' } },
        { body: { access_token: 't' } },
        { body: 'not json', raw: true },
        { body: { access_token: 't', token_type: 'Bearer', expires_in: 'soon' } },
      ];
      let i = 0;
      as = await startTokenServer(() => answers[i++]);
      const reasons: string[] = [];
      for (let n = 0; n < answers.length; n++) {
        await clientCredentialsGrant({ tokenEndpoint: `${as.origin}/token`, clientId: 'c', auth: { method: 'none' }, resource: RESOURCE }).then(
          () => reasons.push('accepted'),
          (e: TokenEndpointError) => reasons.push(`${e.error}: ${e.errorDescription}`),
        );
      }
      expect(reasons).to.deep.equal([
        'invalid_response: the answer has no access_token',
        'invalid_response: the token type is "mac", not Bearer',
        'invalid_response: the answer has no token_type',
        'invalid_response: the answer was not a JSON object',
        'invalid_response: expires_in is not a non-negative number',
      ]);
    });
  });

  describe('JWT signing', () => {
    it('signs RS256 and ES256 with PKCS#8 keys, and refuses a key of the wrong kind', () => {
      const rs = signJwt({ a: 1 }, { privateKey: pem(rsa.privateKey), algorithm: 'RS256', keyId: 'k1' });
      expect(verifyJwt(rs, rsa.publicKey)).to.deep.equal({ header: { alg: 'RS256', typ: 'JWT', kid: 'k1' }, claims: { a: 1 } });
      const es = clientAssertion({ clientId: 'c', audience: 'https://as', privateKey: pem(ec.privateKey), algorithm: 'ES256', now: NOW, lifetimeSeconds: 30 });
      // A raw r||s signature is 64 bytes for P-256 (a DER one would be ~70).
      expect(Buffer.from(es.split('.')[2], 'base64url').length).to.equal(64);
      expect(verifyJwt(es, createPublicKey(ec.privateKey)).claims.exp).to.equal(NOW / 1000 + 30);
      expect(() => signJwt({}, { privateKey: pem(rsa.privateKey), algorithm: 'ES256' })).to.throw(TypeError, /ES256 needs an EC key/);
      expect(() => signJwt({}, { privateKey: 'not a key', algorithm: 'RS256' })).to.throw(TypeError, /not a PEM private key/);
    });
  });

  describe('cross-app access', () => {
    it('exchanges the ID token for an ID-JAG at the IdP, then gets an access token with the jwt-bearer grant', async () => {
      as = await startTokenServer((r) => {
        if (r.path === '/idp/token') {
          return { body: { access_token: 'the-id-jag', issued_token_type: ID_JAG_TOKEN_TYPE, token_type: 'N_A', expires_in: 300 } };
        }
        const creds = basicCredentials(r.headers.authorization);
        if (creds?.[0] !== 'xaa-client' || creds[1] !== 'xaa-secret') return { status: 401, body: { error: 'invalid_client' } };
        return { body: { access_token: 'test-token-9', token_type: 'Bearer', expires_in: 3600 } };
      });
      const jag = await exchangeIdTokenForIdJag({
        tokenEndpoint: `${as.origin}/idp/token`,
        clientId: 'idp-client',
        idToken: 'header.idtoken.sig',
        audience: 'http://127.0.0.1:9',
        resource: RESOURCE,
      });
      expect(jag).to.deep.equal({ assertion: 'the-id-jag', expiresIn: 300 });
      expect(Object.fromEntries(as.requests[0].form)).to.deep.equal({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: ID_JAG_TOKEN_TYPE,
        subject_token: 'header.idtoken.sig',
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        audience: 'http://127.0.0.1:9',
        resource: RESOURCE,
        client_id: 'idp-client',
      });
      const token = await jwtBearerGrant({
        tokenEndpoint: `${as.origin}/as/token`,
        clientId: 'xaa-client',
        auth: { method: 'client_secret_basic', clientSecret: 'xaa-secret' },
        assertion: jag.assertion,
      });
      expect(token.access_token).to.equal('test-token-9');
      expect(Object.fromEntries(as.requests[1].form)).to.deep.equal({ grant_type: JWT_BEARER_GRANT, assertion: 'the-id-jag' });
    });

    it('refuses an exchange answer that is not an ID-JAG, and reports the IdP refusing the ID token', async () => {
      let n = 0;
      as = await startTokenServer(() =>
        n++ === 0 ? { body: { access_token: 'x', token_type: 'Bearer', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' } } : { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid ID token' } },
      );
      const options = { tokenEndpoint: `${as.origin}/idp/token`, clientId: 'idp-client', idToken: 'id.token.here', audience: 'https://as', resource: RESOURCE };
      const wrongType = await exchangeIdTokenForIdJag(options).catch((e: TokenEndpointError) => e);
      expect((wrongType as TokenEndpointError).errorDescription).to.match(/issued_token_type is "urn:ietf:params:oauth:token-type:access_token", not urn:ietf:params:oauth:token-type:id-jag/);
      const refused = (await exchangeIdTokenForIdJag(options).catch((e: TokenEndpointError) => e)) as TokenEndpointError;
      expect([refused.error, refused.status]).to.deep.equal(['invalid_grant', 400]);
      expect(refused.message).not.to.include('id.token.here');
    });
  });
});
