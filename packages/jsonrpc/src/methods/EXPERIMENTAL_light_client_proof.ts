// An alias sharing light_client_proof's handler, as in nearcore.
export { light_client_proof as EXPERIMENTAL_light_client_proof } from './light_client_proof.js';
