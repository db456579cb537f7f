// The openai SDK and undici, loaded when an OpenAI-compatible provider makes its first request, not when the module
// is imported: listing sessions, replaying, exporting or flying the built-in autopilot never pays for the SDK's
// ~150 modules (about a quarter of a second of CPU at every start).
import type OpenAI from 'openai';
import type { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Stream } from 'openai/core/streaming';
import type { Agent, fetch as undiciFetch } from 'undici';

export interface OpenAISdk {
  OpenAI: typeof OpenAI;
  APIError: typeof APIError;
  APIConnectionTimeoutError: typeof APIConnectionTimeoutError;
  APIUserAbortError: typeof APIUserAbortError;
  Stream: typeof Stream;
  Agent: typeof Agent;
  undiciFetch: typeof undiciFetch;
}

let loading: Promise<OpenAISdk> | undefined;
let loaded: OpenAISdk | undefined;

/** The SDK, imported on the first call (one import however many providers ask at once). */
export function loadOpenAISdk(): Promise<OpenAISdk> {
  loading ??= (async () => {
    const [sdk, streaming, undici] = await Promise.all([
      import('openai'),
      import('openai/core/streaming'),
      import('undici'),
    ]);
    loaded = {
      OpenAI: sdk.default,
      APIError: sdk.APIError,
      APIConnectionTimeoutError: sdk.APIConnectionTimeoutError,
      APIUserAbortError: sdk.APIUserAbortError,
      Stream: streaming.Stream,
      Agent: undici.Agent,
      undiciFetch: undici.fetch,
    };
    return loaded;
  })();
  return loading;
}

/** The SDK if it has been loaded; an error can only be one of its errors once it has. */
export function loadedOpenAISdk(): OpenAISdk | undefined {
  return loaded;
}
