/** A response handed on to fetchRobotsTxt with its body replaced (a copy kept aside), everything else as it came. */
import type { HttpResponse } from './http-fetch.js';
import type { BodyStreamShape, ResponseShape } from './library.js';

export function withBody(response: HttpResponse, body: BodyStreamShape | null): ResponseShape {
  return {
    status: response.status,
    type: response.type,
    url: response.url,
    redirected: response.redirected,
    headers: response.headers,
    body,
  };
}
