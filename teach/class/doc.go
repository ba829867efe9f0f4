// Package class is the classroom server of schedlab class: while the
// teacher steps through a scenario in the terminal UI, every student
// follows the run on a phone or laptop and answers its questions.
//
// The teacher's side feeds it one small value, a Live (the event's
// sentence, the Ps and queues, the note, the timeline, the open question
// and its reveal), with Server.Publish. The server never calls into the
// UI or the model: what students send can only record an answer, once
// per open question. The teacher reads the room back with Joined and
// Tally, and the end of the class with Summary and WriteCSV.
//
// What it trusts: the teacher's flags (the listen address, the join
// code, the limits) and the process that publishes. What it does not:
// every request, whoever sends it, and the scenario's text, which
// students see. So every request needs the join code (as ?code= on the
// first, then a cookie the server issued); requests are rate-limited per
// student and overall and capped in size; the number of students is
// capped; every string a student sees goes through html/template or JSON
// (and the page's script sets textContent, never markup); a strict
// Content-Security-Policy allows only the server's own script and style.
// Nothing is kept when the process ends but the CSV the teacher asks for.
//
// Standard library only: net/http, html/template and server-sent events
// (text/event-stream), so the student page needs no build step and no
// framework; without JavaScript it refreshes itself and its answer form
// still posts.
package class
