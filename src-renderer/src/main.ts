// Renderer entry: pick the platform's transport (IPC in the desktop app, HTTP
// under `outpost serve`) and mount the app.
import { mount } from 'svelte';
import App from './App.svelte';
import { connect } from './lib/transport';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing');

export default mount(App, { target, props: { connection: connect(window) } });
