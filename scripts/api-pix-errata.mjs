// The slips of the Central Bank's API Pix document (docs/standards/bacen-pix-api-2.9.0.openapi.yaml, release 2.9.0)
// that no answer could satisfy, or that keep a generated client from reaching an operation, corrected in this one
// list. scripts/api-pix-openapi.mjs applies them to make the served /openapi-api-pix.json; docs/api-pix.md lists each
// under "Errata" by its id; test/api-pix/document.test.ts checks that each still finds its slip in the pristine
// document (so a new release that fixes one is noticed) and that the docs name every one. Each `apply` corrects the
// document in place and returns how many places it changed.

/** Every schema object of a document, depth first (components, paths, responses). */
function* schemaObjects(node) {
  if (Array.isArray(node)) for (const item of node) yield* schemaObjects(item);
  else if (node && typeof node === 'object') {
    yield node;
    for (const value of Object.values(node)) yield* schemaObjects(value);
  }
}

/** The location property the document gives a charge's answer (CobGerada's), to declare it where it is missing. */
const locationProperty = (doc) => doc.components.schemas.CobGerada.allOf.find((part) => part.properties?.location).properties.location;

export const ERRATA = [
  {
    id: 'pattern-literals',
    bacen: 'pattern: "/^\\d{11}$/" (PessoaFisica.cpf and 13 more CPF fields) and "/^\\d{7}$/" (codMun)',
    correction: 'The slashes of a JavaScript regex literal are part of an OpenAPI pattern (ECMA 262 text), so no CPF matched; served as ^\\d{11}$ and ^\\d{7}$.',
    apply(doc) {
      let n = 0;
      for (const o of schemaObjects(doc))
        if (typeof o.pattern === 'string' && /^\/.*\/$/.test(o.pattern)) {
          o.pattern = o.pattern.slice(1, -1);
          n++;
        }
      return n;
    },
  },
  {
    id: 'location-uri',
    bacen: 'location: format: uri, example: "pix.example.com/qr/v2/2353c790eefb11eaadc10242ac120002"',
    correction: "A location carries no scheme (the BR Code's URL field holds it without https://, as the document's own example), so it is no URI: served without format uri.",
    apply(doc) {
      let n = 0;
      for (const o of schemaObjects(doc.components.schemas))
        if (o.properties?.location?.format === 'uri') {
          delete o.properties.location.format;
          n++;
        }
      return n;
    },
  },
  {
    id: 'recebedor-address',
    bacen: 'DadosRecebedor: required: ["logradouro", "cidade", "uf", "cep"], beside properties: recebedor',
    correction: "The address fields are the receiver's (recebedor requires them again inside); required at the charge's top level, no cobv could validate. Served with the requirement inside recebedor only.",
    apply(doc) {
      const s = doc.components.schemas.DadosRecebedor;
      if (!s.required) return 0;
      delete s.required;
      return 1;
    },
  },
  {
    id: 'idcob',
    bacen: 'CobsConsultadas and CobsVConsultadas: cobs.items: required: ["status", "txid", "idCob"]',
    correction: 'idCob is defined nowhere in the document; served as required: ["status", "txid"].',
    apply(doc) {
      let n = 0;
      for (const name of ['CobsConsultadas', 'CobsVConsultadas']) {
        const parts = doc.components.schemas[name].properties.cobs.items.allOf;
        for (const part of parts)
          if (part.required?.includes('idCob')) {
            part.required = part.required.filter((r) => r !== 'idCob');
            n++;
          }
      }
      return n;
    },
  },
  {
    id: 'pix-list',
    bacen: 'PixConsultados: required: ["parametros", "cobs"], properties: parametros, pix',
    correction: 'The list of GET /pix is pix (its only list property); served as required: ["parametros", "pix"].',
    apply(doc) {
      const s = doc.components.schemas.PixConsultados;
      if (!s.required.includes('cobs')) return 0;
      s.required = s.required.map((r) => (r === 'cobs' ? 'pix' : r));
      return 1;
    },
  },
  {
    id: 'cobv-location',
    bacen: 'CobVGerada: required: ["location", ...] with no location property',
    correction: "A cobv's answer carries location as a cob's does; declared (CobGerada's property), so a generated client types it.",
    apply(doc) {
      const s = doc.components.schemas.CobVGerada;
      if (s.allOf.some((part) => part.properties?.location)) return 0;
      s.allOf.push({ type: 'object', properties: { location: structuredClone(locationProperty(doc)) } });
      return 1;
    },
  },
  {
    id: 'loc-txid',
    bacen: 'CobGerada and CobVGerada: loc: required: ["id", "txid", "tipoCob", "criacao"], allOf: PayloadLocation (which has no txid)',
    correction: "loc.txid is required but declared nowhere; declared in PayloadLocation (the charge's txid, as PayloadLocationCompleta has it).",
    apply(doc) {
      const s = doc.components.schemas.PayloadLocation;
      if (s.properties.txid) return 0;
      s.properties = { id: s.properties.id, txid: { $ref: '#/components/schemas/TxId' }, ...s.properties };
      return 1;
    },
  },
  {
    id: 'payload-paths',
    bacen: 'paths "/{pixUrlAccessToken}", "/cobv/{pixUrlAccessToken}" and "/rec/{recUrlAccessToken}", on servers https://{fdqnPSPRecebedor}/{endpointOpcional}',
    correction:
      "Beside /cobv/{txid} and /rec/{idRec}, /cobv/{pixUrlAccessToken} and /rec/{recUrlAccessToken} are the same paths (OpenAPI: templated paths of the same hierarchy MUST NOT exist), and a client generated for the API's server cannot reach another server. Served as /qr/{pixUrlAccessToken}, /qr/cobv/{pixUrlAccessToken} and /qr/rec/{recUrlAccessToken} under the API's server, where the sandbox answers them as the location does.",
    apply(doc) {
      let n = 0;
      for (const [from, to] of [
        ['/{pixUrlAccessToken}', '/qr/{pixUrlAccessToken}'],
        ['/cobv/{pixUrlAccessToken}', '/qr/cobv/{pixUrlAccessToken}'],
        ['/rec/{recUrlAccessToken}', '/qr/rec/{recUrlAccessToken}'],
      ]) {
        const item = doc.paths[from];
        if (!item) continue;
        delete doc.paths[from];
        const { servers, ...get } = item.get;
        doc.paths[to] = { ...item, get };
        n++;
      }
      return n;
    },
  },
  {
    id: 'rec-retentativa',
    bacen: 'RecBase: required: ["idRec", "calendario", "vinculo", "retentativa"]',
    correction: 'retentativa is defined nowhere (the policy is politicaRetentativa, which RecConfiguracao requires), so no recurrence validated; served as required: ["idRec", "calendario", "vinculo"].',
    apply(doc) {
      const s = doc.components.schemas.RecBase;
      if (!s.required.includes('retentativa')) return 0;
      s.required = s.required.filter((r) => r !== 'retentativa');
      return 1;
    },
  },
  {
    id: 'rec-request-idrec',
    bacen: 'RecSolicitada (the body of POST /rec): allOf: [RecBase, ...], RecBase: required: ["idRec", ...]',
    correction: "The PSP assigns idRec (POST /rec answers it, and neither of the operation's examples sends one), so no request to create a recurrence validated; RecSolicitada is served with RecBase's schema inline, idRec not required there (the answers built on RecBase still require it).",
    apply(doc) {
      const parts = doc.components.schemas.RecSolicitada.allOf;
      const at = parts.findIndex((part) => part.$ref === '#/components/schemas/RecBase');
      if (at < 0) return 0;
      const base = structuredClone(doc.components.schemas.RecBase);
      base.required = base.required.filter((r) => r !== 'idRec');
      parts[at] = base;
      return 1;
    },
  },
  {
    id: 'rec-revisada-devedor',
    bacen: 'RecRevisada (the body of PATCH /rec/{idRec}): vinculo.devedor: oneOf: [Pessoa Física {required: ["nome"]}, Pessoa Jurídica {required: ["nome"]}], the two branches alike',
    correction: "Every devedor matches both branches and so fails the oneOf: no revision of the debtor's name (the operation's own example) validated; served as the one object, nome required.",
    apply(doc) {
      const part = doc.components.schemas.RecRevisada.allOf.find((p) => p.properties?.vinculo);
      const devedor = part?.properties.vinculo.properties.devedor;
      if (!devedor?.oneOf) return 0;
      const { oneOf, ...rest } = devedor;
      part.properties.vinculo.properties.devedor = { ...rest, ...oneOf[0], title: 'Devedor' };
      return 1;
    },
  },
  {
    id: 'pagador-rec-ispb',
    bacen: 'DadosPagadorRec: required: ["ispbParticipante"], beside properties: pagador',
    correction: "ispbParticipante is the payer's PSP, inside pagador; required at the recurrence's top level, no approved recurrence validated. Served without the top-level requirement.",
    apply(doc) {
      const s = doc.components.schemas.DadosPagadorRec;
      if (!s.required) return 0;
      delete s.required;
      return 1;
    },
  },
  {
    id: 'rec-notification-quote',
    bacen: 'RecNotification: required: ["idRec","status",atualizacao"]',
    correction: 'A stray quote makes the third name \'atualizacao"\', which no notice carries; served as required: ["idRec", "status", "atualizacao"].',
    apply(doc) {
      const s = doc.components.schemas.RecNotification;
      if (!s.required.includes('atualizacao"')) return 0;
      s.required = s.required.map((r) => (r === 'atualizacao"' ? 'atualizacao' : r));
      return 1;
    },
  },
  {
    id: 'solicrec-required',
    bacen: 'SolicRecCompleta: required: ["rec"]; SolicRecBase: required: ["calendario", "pagador", "idRec", "destinatario"]',
    correction: 'Neither rec nor pagador is a property of a confirmation request (they are recPayload and destinatario), so no solicrec validated; served as required: ["recPayload"] and ["calendario", "idRec", "destinatario"].',
    apply(doc) {
      const { SolicRecCompleta: full, SolicRecBase: base } = doc.components.schemas;
      let n = 0;
      if (full.required.includes('rec')) {
        full.required = full.required.map((r) => (r === 'rec' ? 'recPayload' : r));
        n++;
      }
      if (base.required.includes('pagador')) {
        base.required = base.required.filter((r) => r !== 'pagador');
        n++;
      }
      return n;
    },
  },
  {
    id: 'encerramento-oneof',
    bacen: 'RecEncerramento and CobRAtualizacao: encerramento: oneOf: [{properties: rejeicao}, {properties: cancelamento}], neither branch with required',
    correction: 'Each branch matches any object, so every encerramento matches both and fails the oneOf; served with each branch requiring its property (rejeicao, or cancelamento).',
    apply(doc) {
      let n = 0;
      const { RecEncerramento, CobRAtualizacao } = doc.components.schemas;
      for (const encerramento of [RecEncerramento.properties.encerramento, CobRAtualizacao.properties.encerramento])
        for (const branch of encerramento.oneOf)
          if (!branch.required) {
            branch.required = Object.keys(branch.properties);
            n++;
          }
      return n;
    },
  },
  {
    id: 'locrec-tipo',
    bacen: 'PayloadLocationRecGerada: required: ["id", "location", "tipo", "criacao"], properties: id, location, criacao',
    correction: 'tipo is defined nowhere for a recurrence location (nor in its examples); served as required: ["id", "location", "criacao"].',
    apply(doc) {
      const s = doc.components.schemas.PayloadLocationRecGerada;
      if (!s.required.includes('tipo')) return 0;
      s.required = s.required.filter((r) => r !== 'tipo');
      return 1;
    },
  },
  {
    id: 'pix-automatico-valor',
    bacen: 'PixAutomatico: valor: type: string, pattern: "\\d{1,10}\\.\\d{2}", anyOf: [PixValorOriginal, PixValorJuros, PixValorMulta, PixValorAbatimento, PixValorDesconto]',
    correction: "The five are objects, so no string matches any of them and no recurring charge's pix validated; served as the string with its pattern.",
    apply(doc) {
      const s = doc.components.schemas.PixAutomatico.properties.valor;
      if (!s.anyOf) return 0;
      delete s.anyOf;
      return 1;
    },
  },
];

/** Applies every erratum to `doc` (in place); returns it. */
export function applyErrata(doc) {
  for (const erratum of ERRATA) erratum.apply(doc);
  return doc;
}
