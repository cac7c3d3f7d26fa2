/**
 * The Isolink service client: a typed client for the whole service interface.
 * No browser APIs; runs in the extension's background and in Node 20.
 *
 * @example
 * import { createClient, isAuthError } from './src/api';
 * const client = createClient({ baseUrl, launchBase, token });
 * const { browse_context_id } = await client.createContext({ username, url, auto_domain_allow: true });
 */
export { IsolinkClient, createClient } from './client';
export { checkLaunchUrl, isLaunchUrl, type LaunchUrl } from '../service/launch';
export {
  BULK_BATCH_SIZE,
  BULK_MAX_URLS,
  DEFAULT_TIMEOUT_MS,
  type BulkCreateParams,
  type BulkCreateResult,
  type BulkCreated,
  type BulkFailure,
  type ClientOptions,
  type ProxyChangeResult,
  type ProxyListResult,
  type PutFileParams,
  type ResearchContextParams,
} from './types';
export {
  ApiError,
  AuthError,
  CommandError,
  HttpError,
  NetworkError,
  ProtocolError,
  TimeoutError,
  ValidationError,
  isApiError,
  isAuthError,
  isCommandError,
  isHttpError,
  isNetworkError,
  isProtocolError,
  isTimeoutError,
  isValidationError,
  sanitizeServiceText,
  type ApiErrorCode,
  type ApiErrorName,
  type AuthCode,
  type CommandCode,
  type CommandErrorKind,
  type HttpCode,
  type NetworkCode,
  type ProtocolCode,
  type TimeoutCode,
  type ValidationCode,
} from '../service/errors';
export {
  BROWSER_NAMES,
  BROWSER_OS,
  DEFAULT_PROXY_PORTS,
  PROXY_TYPES,
  isAcceptLanguage,
  isIanaTimeZone,
  prepareProxies,
  type BrowserProfile,
  type Categories,
  type ContextDataParams,
  type CreateContextParams,
  type Proxy,
  type ProxyInput,
  type ProxyType,
  type ProxyWarning,
  type ProxyWarningCode,
  type UpdateContextChanges,
} from './params';
export type { ContextDetails, CreatedContext, DeleteProxiesResult, OrgRecord, ProxyRecord, User } from './results';
export { MAX_RETRIES, REQUEST_INIT, type CallOptions, type Slot, type TokenSource, type WireCommand } from './transport';
export { RESEARCH_SESSION_TYPE, SESSION_TYPES, type ExpiresInput, type SessionType, type ShortcutResponse } from '../service/wire';
