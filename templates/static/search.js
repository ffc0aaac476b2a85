/* Site search: MiniSearch over the index scripts written by sitegen/render/search.py.
 *
 * Works from file:// (no fetch, no modules): each language's index is plain scripts, an entry,
 * assets/search-<lang>.js, that lists its shards (window.SEARCH_SHARDS_BY_LANG[lang]) and holds
 * the record's rows, and the shards, each setting window.SEARCH_PARTS_BY_LANG[lang][k] to some
 * of its documents (an edit writes one shard again); a language is loaded once all have run.
 * The page's own language is loaded at the first use of the box; a query in a script the page's
 * language does not use (训练 on an English page) loads and searches the language of that
 * script instead, labelled with its name; "All languages" adds the others' scripts on demand.
 * Ranking: a title that is the query, then one that begins with or holds it as whole words
 * (a benchmark, chip, submitter or system before what bears its name), then the rest; within
 * each, by MiniSearch's relevance in steps of a tenth of the best, and within a step the
 * record's results and leaderboards newest round first, then the pages.
 *
 * Tokens: Latin words lowercased (prefix and fuzzy matching); CJK runs become single
 * characters plus bigrams (exact matching) in documents, bigrams alone in a query of two
 * characters or more; Traditional characters folded to Simplified, for documents and queries
 * alike. A company's page also holds its names in every language ("names", companies.yaml).
 * Keys: Enter searches, Tab or ArrowDown reaches the results, Escape clears.
 * The results open in a panel over the page, under the box ([data-search-panel]): they never
 * push the page down (no layout shift). Escape, a click outside the form or Tab past its last
 * link closes the panel; focusing the box again reopens it with the same results. */
(function () {
  'use strict';

  var CJK = '\\u2E80-\\u2FDF\\u3040-\\u30FF\\u3100-\\u312F\\u31A0-\\u31FF\\u3400-\\u4DBF' +
            '\\u4E00-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF';
  /* A Latin (or other non-CJK) word: letters and digits that are not CJK, so that "v1.0中" is
     the word v1.0 and the character 中, as Chinese text writes them without a space. */
  var WORD = '(?:(?![' + CJK + '])[\\p{L}\\p{N}])+';
  var TOKEN = new RegExp('([' + CJK + ']+)|(' + WORD + '(?:[.\'\\u2019_]' + WORD + ')*)', 'gu');
  var IS_CJK = new RegExp('^[' + CJK + ']+$');
  var MAX_RESULTS = 20;

  /* `query`: a CJK run of two characters or more is searched by its bigrams only, so that
     英伟达 never matches a page on 达 alone; a page's text is indexed by both. */
  function tokenize(text, query) {
    var tokens = [];
    var match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text || '')) !== null) {
      if (match[1]) {
        var chars = Array.from(match[1]);
        for (var i = 0; i < chars.length; i++) {
          if (!query || chars.length === 1) { tokens.push(chars[i]); }
          if (i + 1 < chars.length) { tokens.push(chars[i] + chars[i + 1]); }
        }
      } else {
        tokens.push(match[2].toLowerCase());
      }
    }
    return tokens;
  }

  function isCJK(term) { return IS_CJK.test(term); }

  /* One form for both Chinese scripts: every character through assets/search-fold.js's table
     (Traditional -> Simplified), in documents and queries alike, so that a term typed in
     either script finds pages in both. */
  function processTerm(term) {
    var fold = window.SEARCH_FOLD;
    if (!fold || !isCJK(term)) { return term.toLowerCase(); }
    var out = '';
    var chars = Array.from(term);
    for (var i = 0; i < chars.length; i++) { out += fold[chars[i]] || chars[i]; }
    return out;
  }

  /* Reports are what the site is for; the many result rows repeat the same words. */
  var KIND_BOOST = { report: 1.6, page: 1.3, glossary: 1.2, benchmark: 1.2, system: 1.2,
                     list: 0.9, result: 0.8, leaderboard: 0.9 };
  /* Among pages whose title is what was typed, the thing named comes first: a benchmark, chip,
     submitter or system before a leaderboard or result that bears the name, and those before
     the rest. */
  var KIND_ORDER = { benchmark: 0, accelerator: 1, submitter: 2, system: 3, leaderboard: 4,
                     result: 5, round: 6 };

  var SEARCH_OPTIONS = {
    tokenize: function (text) { return tokenize(text, true); },
    boost: { title: 3, names: 3 },
    boostDocument: function (id, term, stored) {
      return (stored && KIND_BOOST[stored.kind]) || 1;
    },
    prefix: function (term) { return !isCJK(term); },
    fuzzy: function (term) { return !isCJK(term) && term.length > 3 ? 0.2 : false; }
  };

  /* The record's results and leaderboards (sitegen/render/record/search_rows.py): compact rows
     beside the pages, made into documents here. A result is titled by its system's name; its
     snippet (round, submitter, benchmark, scale, division, and the framework where those are
     alike) tells two of one name apart. `age`: the round's place, oldest 0 (ranking). */
  function recordDocs(lang) {
    var record = (window.SEARCH_RECORD_BY_LANG || {})[lang];
    if (!record) { return []; }
    var tpl = record.templates;
    var docs = record.results.map(function (row) {
      var url = lang + '/' + format(tpl.url, { id: row[1] });
      var scale = row[6] ? format(tpl.scale, { count: row[6], accelerator: record.accelerators[row[5]] })
                         : tpl.cpu;
      var snippet = format(tpl.snippet, {
        round: record.rounds[row[2]], submitter: record.submitters[row[3]],
        benchmark: record.benchmarks[row[4]], scale: scale, division: tpl.divisions[row[7]] }) +
        (row.length > 8 ? ' · ' + row[8] : '');
      return { id: url, url: url, title: row[0], snippet: snippet, text: snippet,
               kind: 'result', label: record.labels.result, lang: lang, age: row[2] };
    });
    return docs.concat(record.leaderboards.map(function (row) {
      var url = lang + '/' + row[2];
      var title = format(tpl.leaderboard, { benchmark: record.benchmarks[row[0]], round: record.rounds[row[1]] });
      return { id: url, url: url, title: title, snippet: '', text: '', kind: 'leaderboard',
               label: record.labels.leaderboard, lang: lang, age: row[1] };
    }));
  }

  /* A title or query as compared for ranking: folded script, lower case, one space. */
  function normal(text) {
    var fold = window.SEARCH_FOLD || {};
    return Array.from(String(text || '').toLowerCase()).map(function (ch) { return fold[ch] || ch; })
      .join('').replace(/[\s\u00a0]+/g, ' ').trim();
  }

  /* A company's page is titled by one of its names (data/companies.yaml): any of them typed,
     in either script or in Latin letters, ranks it as its title would. */
  function tierOf(doc, query) {
    var names = String(doc.names || '').split('|').filter(Boolean);
    var best = tier(doc.title, query);
    for (var i = 0; i < names.length && best > 0; i++) {
      if (normal(names[i]) === query) { best = 0; }
    }
    return best;
  }

  /* 0: the title is the query; 1: the title begins with it as whole words; 2: holds it as
     whole words; 3: anything else MiniSearch found. */
  function tier(title, query) {
    var t = normal(title);
    if (t === query) { return 0; }
    var at = t.indexOf(query);
    while (at >= 0) {
      var before = at === 0 ? ' ' : t.charAt(at - 1);
      var after = t.charAt(at + query.length) || ' ';
      var cjk = isCJK(query.charAt(0));
      if (cjk || (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after))) {
        return at === 0 ? 1 : 2;
      }
      at = t.indexOf(query, at + 1);
    }
    return 3;
  }

  /* The languages a query is searched in: the page's own, unless the query is written in a
     script the page's language does not use (训练 on an English page): then the languages
     that use it, the one of the query's own script first (Traditional characters: zh-Hant). */
  function queryLangs(text, lang, langs, attrs) {
    if (!/[\u3400-\u9fff\uf900-\ufaff]/.test(text) || /^(zh|ja|ko)\b/.test(attrs[lang] || lang)) {
      return [lang];
    }
    var chinese = langs.filter(function (code) { return /^zh\b/.test(attrs[code] || code); });
    if (!chinese.length) { return [lang]; }
    var fold = window.SEARCH_FOLD || {};
    var traditional = Array.from(text).some(function (ch) { return fold[ch]; });
    var mine = chinese.filter(function (code) {
      return /Hant/.test(attrs[code] || '') === traditional;
    });
    return mine.length ? [mine[0]] : [chinese[0]];
  }

  /* A language's documents, once its entry script and every shard it lists have run (joined
     once, in the shards' order), else null. */
  function languageDocs(lang) {
    var joined = window.SEARCH_DOCS_BY_LANG = window.SEARCH_DOCS_BY_LANG || {};
    var shards = (window.SEARCH_SHARDS_BY_LANG || {})[lang];
    var parts = (window.SEARCH_PARTS_BY_LANG || {})[lang] || {};
    if (joined[lang] || !shards) { return joined[lang] || null; }
    for (var k = 0; k < shards.length; k++) { if (!parts[k]) { return null; } }
    joined[lang] = [].concat.apply([], shards.map(function (path, at) { return parts[at]; }));
    return joined[lang];
  }

  /* A <script> added to the page; done(true) once it ran, done(false) if it failed to load. */
  function loadScript(src, done) {
    var script = document.createElement('script');
    script.src = src;
    script.onload = function () { done(true); };
    script.onerror = function () { done(false); };
    document.head.appendChild(script);
  }

  function format(template, values) {
    return String(template || '').replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : all;
    });
  }

  function Search(form) {
    this.form = form;
    this.root = form.getAttribute('data-root') || '';
    this.lang = form.getAttribute('data-lang') || '';
    this.langs = (form.getAttribute('data-langs') || this.lang).split(/\s+/).filter(Boolean);
    this.langAttrs = JSON.parse(form.getAttribute('data-lang-attrs') || '{}');
    try { this.langNames = JSON.parse(form.getAttribute('data-lang-names') || '{}'); }
    catch (e) { this.langNames = {}; }
    this.input = form.querySelector('input[type="search"]');
    this.all = form.querySelector('input[data-search-all]');
    this.out = form.querySelector('[data-search-results]');
    this.panel = form.querySelector('[data-search-panel]');
    this.index = null;
    this.docs = {};
    this.loaded = {};
    this.loading = {};     /* language -> callbacks waiting for its scripts (loadLanguage) */
    this.timer = null;
    this.bind();
    form.hidden = false;
    var query = new URLSearchParams(window.location.search).get('q');
    if (query) { this.input.value = query; this.run(); }
  }

  Search.prototype.ensureIndex = function () {
    if (this.index) { return this.index; }
    this.index = new window.MiniSearch({
      idField: 'id',        /* the URL */
      fields: ['title', 'names', 'text'],
      storeFields: ['title', 'names', 'url', 'snippet', 'kind', 'label', 'lang'],
      tokenize: function (text) { return tokenize(text, false); },
      processTerm: processTerm,
      searchOptions: SEARCH_OPTIONS
    });
    this.addLanguage(this.lang);
    return this.index;
  };

  Search.prototype.addLanguage = function (lang) {
    var docs = languageDocs(lang);
    if (!docs || this.loaded[lang]) { return !!docs; }
    var fresh = [];
    docs = docs.concat(recordDocs(lang));
    for (var i = 0; i < docs.length; i++) {
      var id = docs[i].id || docs[i].url;
      if (!this.docs[id]) {
        this.docs[id] = docs[i];
        fresh.push(docs[i].id ? docs[i] : Object.assign({ id: id }, docs[i]));
      }
    }
    this.index.addAll(fresh);
    this.loaded[lang] = true;
    return true;
  };

  /* A language's index: its entry script, then the shards it lists, all at once; done(ok) once
     every one has run (or one failed). A language asked for again while it loads waits for it. */
  Search.prototype.loadLanguage = function (lang, done) {
    var self = this;
    if (languageDocs(lang)) { done(true); return; }
    if (this.loading[lang]) { this.loading[lang].push(done); return; }
    var waiting = this.loading[lang] = [done];
    var finish = function (ok) {
      delete self.loading[lang];
      waiting.forEach(function (callback) { callback(ok && !!languageDocs(lang)); });
    };
    loadScript(this.root + 'assets/search-' + lang + '.js', function (ok) {
      var shards = ok && (window.SEARCH_SHARDS_BY_LANG || {})[lang];
      if (!shards) { finish(false); return; }
      var left = shards.length;
      var failed = false;
      if (!left) { finish(true); return; }
      shards.forEach(function (path) {
        loadScript(self.root + path, function (loaded) {
          failed = failed || !loaded;
          if (--left === 0) { finish(!failed); }
        });
      });
    });
  };

  /* MiniSearch and this language's index, loaded with <script> (file:// allows that) on
     first use: a page costs nothing for search until the reader turns to it. */
  Search.prototype.prepare = function (done) {
    var self = this;
    if (this.ready) { done(true); return; }
    if (this.waiting) { this.waiting.push(done); return; }
    this.waiting = [done];
    var files = ['assets/minisearch.js'];
    if (this.form.hasAttribute('data-fold')) { files.push('assets/search-fold.js'); }
    var finish = function (ok) {
      self.ready = ok;
      var waiting = self.waiting;
      self.waiting = null;
      if (self.all && self.all.checked && ok) { self.all.dispatchEvent(new Event('change')); }
      waiting.forEach(function (callback) { callback(ok); });
    };
    var next = function (at) {
      if (at === files.length) {
        self.loadLanguage(self.lang, function (ok) { finish(ok && !!window.MiniSearch); });
        return;
      }
      loadScript(self.root + files[at], function (ok) { if (ok) { next(at + 1); } else { finish(false); } });
    };
    next(window.MiniSearch ? 1 : 0);
  };

  /* The other languages' indexes (or those of `langs`), loaded with <script> (file:// allows
     that). */
  Search.prototype.loadOthers = function (done, langs) {
    var self = this;
    var waiting = 0;
    var failed = false;
    (langs || this.langs).forEach(function (lang) {
      if (self.loaded[lang] || self.addLanguage(lang)) { return; }
      waiting += 1;
      self.loadLanguage(lang, function (ok) {
        if (ok) { self.addLanguage(lang); } else { failed = true; }
        if (--waiting === 0) { done(failed); }
      });
    });
    if (waiting === 0) { done(false); } else { this.status(this.form.getAttribute('data-msg-loading')); }
  };

  Search.prototype.bind = function () {
    var self = this;
    this.form.addEventListener('submit', function (event) {
      event.preventDefault();
      // a search still pending from typing would redraw the results and drop the focus
      window.clearTimeout(self.timer);
      self.run();
    });
    /* the index loads on first focus or keystroke, never with the page */
    this.input.addEventListener('focus', function () {
      self.prepare(function () {});
      if (self.input.value && self.out.childNodes.length) { self.open(); }
    });
    this.input.addEventListener('input', function () {
      self.form.classList.toggle('search-active', !!self.input.value);
      /* opened at the first keystroke, filled after the pause: its live region is rendered
         before the count is written into it, so that a screen reader hears the count */
      if (self.input.value) { self.open(); } else { self.close(); }
      window.clearTimeout(self.timer);
      self.timer = window.setTimeout(function () { self.run(); }, 120);
    });
    this.input.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        if (self.input.value || self.out.childNodes.length) { event.preventDefault(); }
        self.clear();
      } else if (event.key === 'ArrowDown') {
        var first = self.out.querySelector('a');
        if (first) { event.preventDefault(); first.focus(); }
      }
    });
    this.out.addEventListener('keydown', function (event) {
      var links = Array.prototype.slice.call(self.out.querySelectorAll('a'));
      var at = links.indexOf(document.activeElement);
      if (event.key === 'Escape') {
        event.preventDefault();
        self.clear();
        self.input.focus();
      } else if (event.key === 'ArrowDown' && at >= 0) {
        event.preventDefault();
        (links[at + 1] || links[at]).focus();
      } else if (event.key === 'ArrowUp' && at >= 0) {
        event.preventDefault();
        if (at === 0) { self.input.focus(); } else { links[at - 1].focus(); }
      }
    });
    /* a click or tap outside the form, or the focus leaving it, closes the panel (the query
       and its results stay for when the box is focused again) */
    document.addEventListener('pointerdown', function (event) {
      if (!self.form.contains(event.target)) { self.close(); }
    });
    this.form.addEventListener('focusout', function (event) {
      if (event.relatedTarget && !self.form.contains(event.relatedTarget)) { self.close(); }
    });
    if (this.all) {
      this.all.addEventListener('change', function () {
        if (self.all.checked) {
          if (!self.ready) { self.run(); return; }
          self.ensureIndex();
          self.loadOthers(function (failed) {
            if (failed) { self.status(self.form.getAttribute('data-msg-failed')); } else { self.run(); }
          });
        } else {
          self.run();
        }
      });
    }
  };

  Search.prototype.clear = function () {
    window.clearTimeout(this.timer);
    this.input.value = '';
    this.out.textContent = '';
    this.form.classList.remove('search-active');
    this.close();
  };

  Search.prototype.open = function () {
    if (this.panel) { this.form.classList.add('search-open'); }
  };

  Search.prototype.close = function () {
    this.form.classList.remove('search-open');
  };

  Search.prototype.status = function (text) {
    this.out.textContent = '';
    var p = document.createElement('p');
    p.className = 'search-status';
    p.textContent = text;
    this.out.appendChild(p);
  };

  /* MiniSearch's results in `langs` (all loaded languages when null): those whose title is the
     query first, then those whose title begins with or holds it as whole words, by KIND_ORDER
     (the H100 chips before results whose system is named after them), then the rest; within
     each, by relevance: MiniSearch's score in steps of a tenth of the best score (results alike
     but for their round score alike), and within a step results and leaderboards of the
     newest round first, then the site's pages (a page has no round), then by score. */
  Search.prototype.query = function (text, langs) {
    var options = { combineWith: 'AND' };
    if (langs) { options.filter = function (result) { return langs.indexOf(result.lang) >= 0; }; }
    var results = this.index.search(text, options);
    if (!results.length) {
      options.combineWith = 'OR';
      results = this.index.search(text, options);
    }
    var wanted = normal(text);
    var band = function (result) { return result.tier === 0 ? 0 : result.tier < 3 ? 1 : 2; };
    var rank = function (result) {
      var kind = KIND_ORDER[result.kind];
      return result.tier < 3 && kind !== undefined ? kind : 9;
    };
    var docs = this.docs;
    var age = function (result) {
      var doc = docs[result.id];
      return doc && typeof doc.age === 'number' ? doc.age : -1;
    };
    var best = results.length ? results[0].score : 1;
    results.forEach(function (result, at) {
      result.tier = tierOf(result, wanted);
      result.at = at;
      result.step = Math.floor(10 * result.score / best);
      result.age = age(result);
    });
    return results.sort(function (a, b) {
      return (band(a) - band(b)) || (rank(a) - rank(b)) || (a.tier - b.tier) || (b.step - a.step) ||
        (b.age - a.age) || (a.at - b.at);
    });
  };

  Search.prototype.run = function () {
    var text = this.input.value.trim();
    this.form.classList.toggle('search-active', !!text);
    if (!text) { this.out.textContent = ''; this.close(); return; }
    this.open();
    if (!this.ready) {
      var waiting = this;
      this.status(this.form.getAttribute('data-msg-loading'));
      this.prepare(function (ok) {
        if (ok) { waiting.run(); } else { waiting.status(waiting.form.getAttribute('data-msg-failed')); }
      });
      return;
    }
    this.ensureIndex();
    var self = this;
    var everywhere = !!(this.all && this.all.checked);
    var langs = everywhere ? null : queryLangs(text, this.lang, this.langs, this.langAttrs);
    var missing = (langs || []).filter(function (code) { return !self.loaded[code]; });
    if (missing.length) {          /* 训练 typed on an English page: the Chinese index first */
      this.loadOthers(function (failed) {
        var ok = !failed && missing.every(function (code) { return self.loaded[code]; });
        if (ok) { self.run(); } else { self.status(self.form.getAttribute('data-msg-failed')); }
      }, missing);
      return;
    }
    var results = this.query(text, langs);
    var shown = results.slice(0, MAX_RESULTS);
    var template = !results.length ? this.form.getAttribute('data-msg-none')
      : (results.length === 1 && this.form.getAttribute('data-msg-count-one')) || this.form.getAttribute('data-msg-count');
    this.status(format(template, { count: results.length, query: text }));
    if (!shown.length) { return; }
    var list = document.createElement('ol');
    list.className = 'search-list';
    for (var i = 0; i < shown.length; i++) { list.appendChild(this.item(shown[i], text)); }
    this.out.appendChild(list);
  };

  Search.prototype.item = function (result, query) {
    var doc = this.docs[result.id] || result;
    var li = document.createElement('li');
    var link = document.createElement('a');
    link.href = this.root + doc.url;
    if (doc.lang !== this.lang) {
      var code = this.langAttrs[doc.lang] || doc.lang;
      link.hreflang = code;
      link.lang = code;
    }
    link.className = 'search-title';
    link.textContent = doc.title;
    li.appendChild(link);
    var meta = document.createElement('span');
    meta.className = 'search-kind';
    meta.textContent = doc.label + (doc.lang !== this.lang ? ' · ' + (this.langNames[doc.lang] || doc.lang) : '');
    li.appendChild(meta);
    var snippet = document.createElement('p');
    snippet.className = 'search-snippet';
    if (doc.lang !== this.lang) { snippet.lang = link.lang; }
    var inTitle = result.match && Object.keys(result.match).some(function (term) {
      return result.match[term].indexOf('title') >= 0;
    });
    var excerpt = inTitle ? null : this.excerpt(doc.text || '', result.terms || []);
    if (excerpt) { this.highlight(snippet, excerpt.text, excerpt.term); } else { snippet.textContent = doc.snippet; }
    li.appendChild(snippet);
    return li;
  };

  /* About 180 characters of the page's text around the longest matched term. */
  Search.prototype.excerpt = function (text, terms) {
    var lower = text.toLowerCase();
    var sorted = terms.slice().sort(function (a, b) { return b.length - a.length; });
    for (var i = 0; i < sorted.length; i++) {
      var at = lower.indexOf(sorted[i]);
      if (at < 0) { continue; }
      var cjk = isCJK(sorted[i]);
      var start = Math.max(0, at - (cjk ? 30 : 60));
      var end = Math.min(text.length, at + (cjk ? 70 : 120));
      if (!cjk) {                /* whole words at both ends */
        var space = text.indexOf(' ', start);
        if (start > 0 && space >= 0 && space < at) { start = space + 1; }
        space = text.lastIndexOf(' ', end);
        if (end < text.length && space > at + sorted[i].length) { end = space; }
      }
      return {
        text: (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : ''),
        term: sorted[i]
      };
    }
    return null;
  };

  Search.prototype.highlight = function (element, text, term) {
    var at = text.toLowerCase().indexOf(term);
    if (at < 0) { element.textContent = text; return; }
    element.appendChild(document.createTextNode(text.slice(0, at)));
    var mark = document.createElement('mark');
    mark.textContent = text.slice(at, at + term.length);
    element.appendChild(mark);
    element.appendChild(document.createTextNode(text.slice(at + term.length)));
  };

  function start() {
    var forms = document.querySelectorAll('form[data-search]');
    for (var i = 0; i < forms.length; i++) { new Search(forms[i]); }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
