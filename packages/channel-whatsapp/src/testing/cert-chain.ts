/**
 * The certificate chain WhatsApp's chat servers present to every client in the Noise handshake
 * (a `proto.CertChain`: an intermediate signed by WhatsApp's long-term root key, and a leaf signed
 * by the intermediate). It is public: any client that connects receives it.
 *
 * Why replaying it works: Baileys 7.0.0-rc14 checks the intermediate against the hard-coded root
 * key (`WA_CERT_DETAILS`) and the leaf against the intermediate, but never checks that the leaf's
 * key is the static key the server used in the handshake. So a server with its own static key can
 * present this chain and pass. A Baileys release that binds the leaf key to the server's static key
 * will reject the fake at the handshake; then the fake needs a client-side seam instead.
 */
export const WHATSAPP_CERT_CHAIN: Uint8Array = Buffer.from(
  "CncKMwjjAhADGiCRKg7Kg1iu4CSulwLBaxX51Tefw6VXGgZqcr5OEbXIRiDQ04bOBijQjZ/TBhJA34Bj82jAHhLpCWBNVBlGnFDieamd8+138S57uMt9ke9mrn5r4+VepwBPKEgHjob6bR70rlCmWDkxZv+CfVjIAxJ2CjIIAxAAGiAcUamsMDmUxsjQuS6hh4pTNHZZnMWZ++o1mX2aqQzOYiCAka6+Bij/3rfcBhJAJw8pRkhTn+1IcOJQVN1OlZg6uikYnCumyO7acFVVX3U3QPXsGSq2TCbCbWrebSC593Su43EgprIDlfU8ZgWFBw==",
  "base64",
);
