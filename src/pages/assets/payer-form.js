// The customer's pay form, shared by the checkout page and /pay: payer name and CPF/CNPJ, both optional (punctuation
// dropped from the document). window.payerForm(form, pay) calls pay(body) on submit, once the admin token is known
// when the sandbox needs one; the page sends body to the charge's pay route.
(function () {
  'use strict';
  window.payerForm = function (form, pay) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var body = {};
      var name = form.payerName.value.trim();
      var doc = form.payerDocument.value.replace(/\D/g, '');
      if (name) body.payerName = name;
      if (doc) body.payerDocument = doc;
      form.querySelector('button[type="submit"]').disabled = true;
      window.sandbox.ready(function () { pay(body); });
    });
  };
})();
