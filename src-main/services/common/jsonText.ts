// A response whose JSON text the service built itself (the list hot path,
// annotations/annotationJson.ts). Only a transport that asks for it
// (RequestContext.acceptsJsonText: the HTTP server, which writes the text as
// it is) ever receives one; every other caller gets wire objects.
export class JsonText {
  constructor(readonly text: string) {}
}
