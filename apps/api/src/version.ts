/** The API's version (the OpenAPI document's `info.version`, the traces' service version). */
export const API_VERSION = "0.1.0";
