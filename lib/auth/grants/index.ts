/**
 * Extension grants of the client: client credentials (secret or private_key_jwt), and the
 * cross-app access pair (RFC 8693 exchange for an ID-JAG, then the RFC 7523 jwt-bearer grant).
 * Endpoints are inputs; `createClientCredentialsProvider` and `createCrossAppAccessProvider`
 * run them after discovery, behind a transport's `auth` option.
 */
export { clientCredentialsGrant, type ClientCredentialsOptions } from './client-credentials.js';
export { clientAssertion, signJwt, type ClientAssertionOptions, type JwtAlgorithm, type SignJwtOptions } from './jwt-assertion.js';
export { ID_JAG_TOKEN_TYPE, ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT, exchangeIdTokenForIdJag, type IdJag, type IdJagExchangeOptions } from './token-exchange.js';
export { JWT_BEARER_GRANT, jwtBearerGrant, type JwtBearerOptions } from './jwt-bearer.js';
