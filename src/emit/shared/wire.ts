import type { FieldBinding, HttpModel } from "../../model/types.js";

/**
 * A binding as the runtime reads it (wire-request.ts WireBinding): the serialization settings only
 * when declared, so a contract without them generates the same descriptors as before they existed.
 */
export function wireBinding(b: FieldBinding): Record<string, unknown> {
  return {
    field: b.field,
    in: b.in,
    name: b.name,
    ...(b.style !== undefined ? { style: b.style } : {}),
    ...(b.explode !== undefined ? { explode: b.explode } : {}),
    ...(b.allowReserved !== undefined ? { allowReserved: b.allowReserved } : {}),
    ...(b.contentType !== undefined ? { contentType: b.contentType } : {}),
    ...(b.file === true ? { file: true } : {}),
  };
}

/** The request-encoding facts of an operation that differ from the defaults (JSON body, optional, JSON asked for). */
export function wireFacts(http: HttpModel): Record<string, unknown> {
  return {
    ...(http.contentType !== "application/json" ? { contentType: http.contentType } : {}),
    ...(http.bodyRequired ? { bodyRequired: true } : {}),
    ...(http.accept !== null ? { accept: http.accept } : {}),
  };
}
