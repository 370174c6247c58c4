require 'json'
require 'net/http'
require 'uri'

def call(method, url, body, headers = {}, user: nil, form: false)
  uri = URI(url)
  req = Net::HTTPGenericRequest.new(method, true, true, uri.request_uri, headers)
  if form
    req.set_form_data(body)
  else
    req['Content-Type'] = 'application/json'
    req.body = JSON.generate(body)
  end
  req.basic_auth(*user) if user
  res = Net::HTTP.start(uri.host, uri.port, use_ssl: true, read_timeout: 30) { |http| http.request(req) }
  [res.code, JSON.parse(res.body)]
end

charge = { amount: 49.9, description: 'Pedido 1' }
status, body = call('POST', 'https://api.pague.dev/v1/pix', charge, { 'X-API-Key' => ENV.fetch('APP_API_KEY') })
puts "v1 #{status} #{body['id']}"
id, secret = ENV.fetch('APP_CLIENT_ID'), ENV.fetch('APP_CLIENT_SECRET')
_, auth = call('POST', 'https://api-gateway.pague.dev/v2/auth', { client_id: id, client_secret: secret })
status, body = call('POST', 'https://api-gateway.pague.dev/v2/pix', charge, { 'Authorization' => "Bearer #{auth['access_token']}" })
puts "v2 #{status} #{body['id']}"
pix = ENV.fetch('APP_PIX_URL')
_, auth = call('POST', "#{pix}/oauth/token", { 'grant_type' => 'client_credentials' }, user: [id, secret], form: true)
cob = { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d' }
status, body = call('PUT', "#{pix}/v2/cob/#{ENV.fetch('APP_TXID')}", cob, { 'Authorization' => "Bearer #{auth['access_token']}" })
puts "cob #{status} #{body['status']}"
